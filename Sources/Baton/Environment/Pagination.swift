import Foundation

/// A fragment with `@refetchable(queryName:)`: generated code gives it the query that fetches its record again and,
/// when it has a `@connection`, the path to it and the variables that page it.
public protocol RefetchableFragment: LensType {
    /// The generated query (`queryName`): the fragment on its record, from the root or through `node(id:)`.
    associatedtype RefetchQuery: RefetchQueryOperation
    /// The fields from the fragment's record to its `@connection` field, the connection field last; empty when the
    /// fragment has no connection (it can be refetched, not paged).
    static var connectionPath: [Field] { get }
    /// The variables the connection's count and cursor are given by.
    static var paging: PagingVariables { get }
    /// True when the query reaches the record through `node(id:)`: its `id` variable is the record's `id`.
    static var refetchesThroughNode: Bool { get }
}

/// A query generated for a `@refetchable` fragment, made from the variables the pagination sets.
public protocol RefetchQueryOperation: GraphQLOperation {
    /// The query with these variables (those the query does not declare are left out).
    init(variables: [String: JSONValue])
}

/// The variables a `@refetchable` fragment's connection takes its count and cursor from (`first: $count, after:
/// $cursor` pages forward, `last:`/`before:` backward); nil where the connection does not page that way.
public struct PagingVariables: Sendable, Hashable {
    public var forwardCount: String?
    public var forwardCursor: String?
    public var backwardCount: String?
    public var backwardCursor: String?

    public init(
        forwardCount: String? = nil, forwardCursor: String? = nil, backwardCount: String? = nil,
        backwardCursor: String? = nil
    ) {
        self.forwardCount = forwardCount
        self.forwardCursor = forwardCursor
        self.backwardCount = backwardCount
        self.backwardCursor = backwardCursor
    }
}

/// What the pagination of a weakly held connection is kept under.
struct WeakPagination: @unchecked Sendable {
    weak var value: AnyObject?
}

/// The pages of a `@refetchable` fragment's connection: `loadNext`, `loadPrevious`, `hasNext`, `hasPrevious`,
/// `isLoadingNext`, `refetch` (Relay's `usePaginationFragment`).
///
/// One per fragment record and variables in an environment (`environment.pagination(of:)` hands out the same
/// one), so two views paging one connection share its loads. A page is fetched with the generated query, the
/// connection's cursor and the count asked for, and merges into the connection record in order, without an edge
/// already shown (see `ConnectionWrites`); every handle reading the connection re-reads once. Concurrent
/// `loadNext` calls share one fetch. A page that fails (a request error, a transport failure, a field error at the
/// connection) leaves the loaded pages as they were; the error is thrown and kept in `lastError`, and the next
/// `loadNext` asks for the same page again.
public final class Pagination<Fragment: RefetchableFragment>: Sendable {
    public let environment: BatonEnvironment
    /// The fragment's record.
    public let key: RecordKey

    struct State {
        var variables: [String: JSONValue]
        var next: Task<Result<Void, FetchError>, Never>?
        var previous: Task<Result<Void, FetchError>, Never>?
        var refetching: Task<Result<Void, FetchError>, Never>?
        var lastError: FetchError?
    }

    private let state: Locked<State>
    private let observers = Observers()

    init(environment: BatonEnvironment, key: RecordKey, variables: [String: JSONValue]) {
        self.environment = environment
        self.key = key
        state = Locked(State(variables: variables))
    }

    // MARK: What a view reads

    /// The variables the fragment is read and paged with (the parent operation's, then `refetch`'s).
    public var variables: [String: JSONValue] { state.withLock { $0.variables } }

    /// The fragment's data now, read with `variables`.
    public var fragment: Fragment {
        Fragment(
            lens: Lens(
                snapshot: environment.store.snapshot(), key: key,
                context: ReadContext(variables: variables, reporter: LoggingReporter(log: environment.log))))
    }

    /// The connection record, when the store has it.
    public var connectionID: ConnectionID? { locate(environment.store.snapshot(), variables)?.id }

    /// Whether the server has more after the last loaded edge (`pageInfo.hasNextPage`).
    public var hasNext: Bool { pageInfo(ConnectionInfo.hasNextPage)?.boolValue ?? false }
    /// Whether the server has more before the first loaded edge (`pageInfo.hasPreviousPage`).
    public var hasPrevious: Bool { pageInfo(ConnectionInfo.hasPreviousPage)?.boolValue ?? false }
    public var isLoadingNext: Bool { state.withLock { $0.next != nil } }
    public var isLoadingPrevious: Bool { state.withLock { $0.previous != nil } }
    public var isRefetching: Bool { state.withLock { $0.refetching != nil } }
    /// The failure of the latest load or refetch; nil after one succeeds.
    public var lastError: FetchError? { state.withLock { $0.lastError } }

    /// Calls `callback` when a load starts or ends; returns a token for `removeObserver`.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable () -> Void) -> Int { observers.add(callback) }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    // MARK: Loading

    /// Loads up to `count` edges after the last loaded one (nothing when `hasNext` is false). A call while a
    /// `loadNext` runs waits for that one and fetches nothing itself.
    public func loadNext(_ count: Int) async throws(FetchError) {
        try await load(forward: true, count: count)
    }

    /// Loads up to `count` edges before the first loaded one (nothing when `hasPrevious` is false).
    public func loadPrevious(_ count: Int) async throws(FetchError) {
        try await load(forward: false, count: count)
    }

    /// Fetches the fragment again from the start of its connection, with `variables` over the current ones (a new
    /// filter, say); the loaded edges are replaced by the first page, and `fragment` reads with the new variables.
    public func refetch(_ variables: [String: JSONValue] = [:]) async throws(FetchError) {
        let task = state.withLock { state -> Task<Result<Void, FetchError>, Never> in
            var merged = state.variables.merging(variables) { _, new in new }
            for cursor in [Fragment.paging.forwardCursor, Fragment.paging.backwardCursor].compactMap({ $0 }) {
                merged.removeValue(forKey: cursor)
            }
            let task = Task { [self] in await fetch(merged, adopting: true) }
            state.refetching = task
            return task
        }
        observers.notify()
        let result = await task.value
        state.withLock { $0.refetching = nil }
        observers.notify()
        try result.get()
    }

    private func load(forward: Bool, count: Int) async throws(FetchError) {
        let (task, started) = state.withLock { state -> (Task<Result<Void, FetchError>, Never>?, Bool) in
            if let running = forward ? state.next : state.previous { return (running, false) }
            let paging = Fragment.paging
            guard let countName = forward ? paging.forwardCount : paging.backwardCount,
                let cursorName = forward ? paging.forwardCursor : paging.backwardCursor
            else { return (nil, false) }
            let variables = state.variables
            let task = Task { [self] in
                await fetchPage(forward: forward, count: count, countName: countName, cursorName: cursorName, variables)
            }
            if forward { state.next = task } else { state.previous = task }
            return (task, true)
        }
        guard let task else { return }
        if started { observers.notify() }
        let result = await task.value
        if started {
            state.withLock { state in
                if forward { state.next = nil } else { state.previous = nil }
            }
            observers.notify()
        }
        try result.get()
    }

    private func fetchPage(
        forward: Bool, count: Int, countName: String, cursorName: String, _ variables: [String: JSONValue]
    ) async -> Result<Void, FetchError> {
        let snapshot = environment.store.snapshot()
        guard let connection = locate(snapshot, variables) else {
            return fail(
                .unattached("the store has no connection for \(Fragment.nameOfFragment ?? "\(Fragment.self)") yet"))
        }
        let info = connection.pageInfo.flatMap { snapshot[$0] }
        let more = info?.slots[forward ? ConnectionInfo.hasNextPage : ConnectionInfo.hasPreviousPage]?.value.boolValue
        guard more == true,
            let cursor = info?.slots[forward ? ConnectionInfo.endCursor : ConnectionInfo.startCursor]?.value.stringValue
        else { return .success(()) }
        var pageVariables = variables
        pageVariables[countName] = .number(String(count))
        pageVariables[cursorName] = .string(cursor)
        return await fetch(pageVariables, adopting: false)
    }

    /// Sends the generated query with `variables`; a field error at the connection fails the page.
    private func fetch(_ variables: [String: JSONValue], adopting: Bool) async -> Result<Void, FetchError> {
        var requestVariables = variables
        if Fragment.refetchesThroughNode {
            guard let id = environment.store.record(key)?.slots["id"]?.value.stringValue else {
                return fail(.unattached("the record \(key) has no id to refetch it by"))
            }
            requestVariables["id"] = .string(id)
        }
        let query = Fragment.RefetchQuery(variables: requestVariables)
        do {
            try await environment.send(query, beforeDelivery: {}, afterDelivery: {})
        } catch {
            return fail(error)
        }
        environment.keepRecent(RetainedRoot(query))
        if let errors = pageErrors(variables), !errors.isEmpty {
            return fail(.read(.fieldErrors(FieldErrors(errors))))
        }
        state.withLock { state in
            state.lastError = nil
            if adopting { state.variables = variables }
        }
        return .success(())
    }

    private func fail(_ error: FetchError) -> Result<Void, FetchError> {
        state.withLock { $0.lastError = error }
        return .failure(error)
    }

    // MARK: Finding the connection

    /// The connection's record and its page info's, following `connectionPath` from the fragment's record.
    private func locate(_ snapshot: StoreSnapshot, _ variables: [String: JSONValue]) -> (
        id: ConnectionID, parent: RecordKey, pageInfo: RecordKey?
    )? {
        guard let connectionField = Fragment.connectionPath.last,
            let parent = parentOfConnection(snapshot, variables),
            case .link(let id)? = snapshot[parent]?.slots[connectionField.readKey(variables: variables)]?.value
        else { return nil }
        var pageInfo: RecordKey?
        if case .link(let info)? = snapshot[id]?.slots[ConnectionInfo.pageInfo]?.value { pageInfo = info }
        return (ConnectionID(id), parent, pageInfo)
    }

    private func parentOfConnection(_ snapshot: StoreSnapshot, _ variables: [String: JSONValue]) -> RecordKey? {
        var current = key
        for field in Fragment.connectionPath.dropLast() {
            guard case .link(let next)? = snapshot[current]?.slots[field.readKey(variables: variables)]?.value else {
                return nil
            }
            current = next
        }
        return current
    }

    /// The errors of the page slot a fetch with `variables` wrote.
    private func pageErrors(_ variables: [String: JSONValue]) -> [GraphQLError]? {
        let snapshot = environment.store.snapshot()
        guard let field = Fragment.connectionPath.last, let parent = parentOfConnection(snapshot, variables) else {
            return nil
        }
        return snapshot[parent]?.slots[field.storageKey(variables: variables)]?.errors
    }

    private func pageInfo(_ name: String) -> StoredValue? {
        let snapshot = environment.store.snapshot()
        guard let info = locate(snapshot, variables)?.pageInfo else { return nil }
        return snapshot[info]?.slots[name]?.value
    }
}

/// The page info's field names the pagination reads.
enum ConnectionInfo {
    static let pageInfo = "pageInfo"
    static let hasNextPage = "hasNextPage"
    static let hasPreviousPage = "hasPreviousPage"
    static let startCursor = "startCursor"
    static let endCursor = "endCursor"
}

extension StoredValue {
    var boolValue: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension BatonEnvironment {
    /// The pagination of a `@refetchable` fragment's connection, shared by every caller for the same record and
    /// variables while someone holds it.
    public func pagination<F: RefetchableFragment>(of fragment: F) -> Pagination<F> {
        let key = fragment.lens.key
        let variables = fragment.lens.context.variables
        let identity =
            "\(F.self)|\(key)|"
            + JSONValue.object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            .canonicalText
        return state.withLock { state in
            if let existing = state.paginations[identity]?.value as? Pagination<F> { return existing }
            let made = Pagination<F>(environment: self, key: key, variables: variables)
            state.paginations = state.paginations.filter { $0.value.value != nil }
            state.paginations[identity] = WeakPagination(value: made)
            return made
        }
    }

    /// The pagination of the fragment a parent passed (`environment.pagination(of: issue)` in a view holding
    /// `@Fragment var issue`).
    public func pagination<F: RefetchableFragment>(of fragment: Baton.Fragment<F>) -> Pagination<F> {
        pagination(of: fragment.wrappedValue)
    }
}
