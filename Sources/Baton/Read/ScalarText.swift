/// A custom scalar's text: what an unmapped custom scalar reads as and what a mapped one's converter receives.
///
/// A custom scalar is stored exactly as the server wrote it (`StoredValue`): a string as its contents, a number as
/// its literal, a Boolean as itself, an object or a list as its JSON. Its text is the string's contents, the
/// number's literal (`1.50e3` stays `1.50e3`), `true` or `false`, or the object's or list's JSON with members in
/// the server's order, numbers as written and no whitespace between tokens (`{"b":1,"a":[true,null]}`). A null,
/// a link or a list of slots (a list the schema itself declares) has no text.
extension StoredValue {
    /// The value's text as a custom scalar reads it; nil for a null, a link or a schema list.
    public var scalarText: String? {
        switch self {
        case .string(let text), .number(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .json(let json): json.compactText
        case .null, .link, .list: nil
        }
    }
}

extension Field {
    /// Whether a `String` read of this field takes any scalar's text: true for a custom scalar (generated code reads
    /// an unmapped one as `String`), false for the built-in `String` and `ID`, whose values must be JSON strings.
    ///
    /// The built-in names are fixed by the GraphQL specification, so the schema type the generated code passes is
    /// enough to tell; only the slow path of a read (a value that is not a string) asks.
    @usableFromInline
    var readsScalarText: Bool {
        switch type.namedType {
        case "String", "ID", "Int", "Float", "Boolean": false
        default: true
        }
    }
}
