/// How a generated accessor reads its value, decided once for every language from the accessor's directives: the
/// Swift and Kotlin lens templates each spell a mode with their runtime's call, and plates name it.
package enum ReadMode: Sendable, Equatable {
    /// A named fragment's spread or an inline fragment: its lens, nil where it does not apply (`isOptional`).
    case spread
    /// A fragment's spread or an inline fragment under `@defer`: its phase (pending, ready with its lens, failed
    /// with its errors), nil where it does not apply (`isOptional`).
    case deferred
    /// A list under `@stream` that would otherwise read plainly: the items so far, whether more are coming, and
    /// the initial count asked for.
    case streamed
    /// `__typename`, read from the record itself.
    case typename
    /// `@catch` or `@catch(to: RESULT)`: the value, or the errors on the field or inside it.
    case catchToResult
    /// `@catch(to: NULL)`: the value, or null when the field or something inside it has an error.
    case catchToNull
    /// `@required(action: THROW)`: the value, or a thrown error where it reads null.
    case throwWhenNull
    /// Under `@throwOnFieldError` (and no `@catch` closer): the value, or a thrown error where the field has one.
    case throwOnFieldError
    /// The value as the schema types it: null where the field is null, missing (reported) or has an error.
    case plain
}

extension Accessor {
    /// The accessor's read: `@catch` first (it catches what would throw inside it), then `@required(action: THROW)`,
    /// then `@throwOnFieldError`, then `@stream`; `__typename` and spreads read as themselves, deferred ones as
    /// their phase. (A streamed list under `@catch`, `@required(action: THROW)` or `@throwOnFieldError` reads as
    /// those say, all of it so far: the plate still says it is streamed.)
    package var readMode: ReadMode {
        guard case .field(let read) = reads else {
            if case .deferred = delivery { return .deferred }
            return .spread
        }
        switch catchMode {
        case .result?: return .catchToResult
        case .null?: return .catchToNull
        case nil:
            if isThrowing { return .throwWhenNull }
            if underThrowOnFieldError { return .throwOnFieldError }
            if read.isTypename { return .typename }
            if case .streamed = delivery { return .streamed }
            return .plain
        }
    }
}
