import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lens type: a struct over the runtime's `Baton.Lens` with one accessor per member of the tree's lens
/// (`LensDeclaration`), its selections (which hold its field descriptions), and its nested lens types. It prints the
/// tree: every type, read, condition, argument and runtime detail is the member's.
///
/// Shape (issue 34: one lazily built constant per lens, its `selections`, built from a table of plain values; an
/// accessor reads its field description there by the member's position; the `LensType` witnesses are the runtime's):
///
///     struct Repository: Baton.LensType {
///         let lens: Baton.Lens
///         init(lens: Baton.Lens) { self.lens = lens }
///         static let selections: [Baton.Selection] = Baton.Selection.table(
///             "nameWithOwner:String! owner:User: *", [Owner.selections], [.fragment(RepoRow.self)])
///         var nameWithOwner: String { lens.read(Self.selections.field(0)) }
///         var owner: Owner { lens.read(Self.selections.field(1)) }
///         var repoRow: Baton.Fragment<RepoRow> { Baton.Fragment(lens: lens) }
///     }
///
/// A nested lens the tree shares with an equal earlier one of the declaration (`MemberDeclaration.sharedLens`) is a
/// typealias to it, qualified from the module-level type, which keeps its name for users' code:
///
///     typealias Friends = SharedLenses.Data.Viewer.Organization.Members
struct SwiftLensTemplate {
    /// What the lens is the root of, which decides its static members.
    enum Role {
        /// An operation's data (`Data`).
        case operationData
        /// A named fragment's lens.
        case fragment(FragmentDeclaration)
        /// A field's nested lens.
        case nested
        /// An inline fragment's lens (`asUser`), with its type condition as written and the types it matches.
        case inlineFragment(typeCondition: String?, matchingTypes: [String]?)
    }

    let generator: SwiftGenerator
    let lens: LensDeclaration
    let typeName: String
    let role: Role
    /// Names of the enclosing types, which nested ones must not repeat.
    let enclosing: [String]

    /// The declaration's root lens and its name's qualification.
    struct Root {
        var lens: LensDeclaration
        var typeName: String
        var enclosing: [String]
    }

    private var names: SwiftNames { generator.names }
    private var access: String { generator.access }
    private static let rules = IdentifierRules.swift

    /// One member of the tree's lens with the names it is declared by.
    ///
    /// A reference, named once by `declareMembers` and then only read: the writers walk the members several times
    /// (selections, accessors, nested lenses, the optimistic builder), and a copy is then one retain, not one per
    /// name (issue 34).
    final class Member {
        let declaration: MemberDeclaration
        /// The property's name as declared (escaped where written with `rules.quoted`).
        let name: String
        /// The nested lens type's name, for `.lens` accessors.
        private(set) var nestedTypeName: String?
        /// `name` and `nestedTypeName` as written (`rules.quoted`), spelt once per member.
        let quotedName: String
        private(set) var quotedNestedTypeName: String? = nil

        init(declaration: MemberDeclaration, name: String, quotedName: String) {
            self.declaration = declaration
            self.name = name
            self.quotedName = quotedName
        }

        /// Names the member's nested lens type (`declareMembers`).
        fileprivate func nest(as typeName: String) {
            nestedTypeName = typeName
            quotedNestedTypeName = SwiftLensTemplate.rules.quoted(typeName)
        }
    }

    func render() -> Template {
        var text = TextBuilder(capacity: 4096)
        var written = WrittenLenses()
        write(into: &text, indent: "", written: &written)
        return text.template
    }

    /// The qualified names (`IssueQuery.Data.Repository`) of the lenses of one declaration written so far, by their
    /// member path from the root lens: where a shared lens's typealias (`sharedLens`, a path to an earlier lens,
    /// which is declared in full before it) finds its type's name without claiming the names along the path again.
    /// Kept only for a declaration that shares a lens (`LensDeclaration.sharesLens`): most share none, and their lenses are then
    /// written without a name or an entry each (issue 34).
    struct WrittenLenses {
        var path: [Int] = []
        var qualifiedNames: [[Int]: String] = [:]
        /// The declaration's root lens: where a shared lens's path starts. Set by the root's `write`.
        var root: Root? = nil
        /// Some nested lens of the declaration is a typealias (`MemberDeclaration.sharedLens`).
        var sharesLenses = false
    }

    /// Writes the lens's declaration, its nested lenses inside it, as the template
    ///
    ///     \(documentation)
    ///     \(access)struct \(typeName): \(conformance) {
    ///         \(access)let lens: Baton.Lens
    ///         \(access)init(lens: Baton.Lens) { self.lens = lens }
    ///         \(staticMembers)                  (`writeStaticMembers`)
    ///         \(access)static let selections: [Baton.Selection] = \(selections(members))
    ///         \(accessorDeclarations(members))
    ///         \(ifLet: connectionID, { $0 })
    ///         \(if: !nested.isEmpty, "\n\(lines: nested, separator: "\n\n")")
    ///         \(ifLet: optimistic, { "\n\($0)" })
    ///     }
    ///
    /// would write it, straight into `text`: each line that is not empty begins with `indent` (and
    /// a nested lens's with one level more), a part that is empty takes no line, and no line ends
    /// in spaces (no part writes one). A lens is most of a file, so no tree of templates is built,
    /// walked and released for it. Ends without a line break.
    func write(into text: inout TextBuilder, indent: String, written: inout WrittenLenses) {
        let members = declareMembers()
        // By a closure, not `members.map(plainField)`: a method passed as a function value copies the template (its
        // generator and lens) into the function's context once per lens.
        let plainFields = members.map { plainField($0) }
        if written.path.isEmpty {
            written.root = Root(lens: lens, typeName: typeName, enclosing: enclosing)
            written.sharesLenses = lens.sharesLens
            if written.sharesLenses {
                written.qualifiedNames[[]] = (enclosing + [typeName]).map(Self.rules.quoted).joined(separator: ".")
            }
        }
        let ownName = written.sharesLenses ? written.qualifiedNames[written.path] : nil
        // A lens reading its record's `id` is `Identifiable` by it (the model decides; the member keeps its name).
        let identifiable = lens.isIdentifiable && members.contains { $0.declaration.name == "id" && $0.name == "id" }
        var conformance = lensProtocol + (identifiable ? ", Swift.Identifiable" : "")
        if case .fragment(let fragment) = role, fragment.entryPoints.refetch != nil {
            conformance += ", Baton.RefetchableFragment"
        }
        let inner = indent + "    "
        text.add(indent)
        writeDocumentation(into: &text)
        text.add(UInt8(ascii: "\n"))
        text.add(indent)
        text.add(access)
        if enclosing.isEmpty { text.add(generator.isolation) }
        text.add("struct ")
        text.add(Self.rules.quoted(typeName))
        text.add(": ")
        text.add(conformance)
        text.add(" {\n")
        text.add(inner)
        text.add(access)
        text.add("let lens: Baton.Lens\n")
        text.add(inner)
        text.add(access)
        text.add("init(lens: Baton.Lens) { self.lens = lens }\n")
        writeStaticMembers(into: &text, indent: inner)
        writeSelections(members, plainFields: plainFields, into: &text, indent: inner)
        writeAccessorDeclarations(members, into: &text, indent: inner)
        if let name = lens.connectionIDName {
            Self.addLines(
                "/// The connection record this lens reads: what a mutation's `connections:` names.\n"
                    + "\(access)var \(Self.rules.quoted(name)): Baton.ConnectionID { Baton.ConnectionID(lens.key) }",
                indent: inner, to: &text)
        }
        // The nested lenses' enclosing names, made once for all of them (not one array and a copy per nested lens).
        var nestedEnclosing: [String]? = nil
        for (index, member) in members.enumerated() {
            guard let lens = member.declaration.lens, let nestedName = member.nestedTypeName else { continue }
            if let path = member.declaration.sharedLens {
                // The same type as an earlier nested lens of the declaration (`LensSharing`): a name for it, which
                // keeps this path's name for users' code, instead of a second struct (issue 34).
                text.add(UInt8(ascii: "\n"))
                text.add(inner)
                text.add("/// A lens of `")
                text.add(lens.recordType)
                text.add("`: the same type as an equal selection's (issue 34).\n")
                text.add(inner)
                text.add(access)
                text.add("typealias ")
                text.add(member.quotedNestedTypeName ?? Self.rules.quoted(nestedName))
                text.add(" = ")
                text.add(written.qualifiedNames[path] ?? self.qualifiedName(of: path, root: written.root))
                text.add(UInt8(ascii: "\n"))
                continue
            }
            let role: Role
            if case .parentRecord(_, let typeCondition, let matchingTypes) = member.declaration.source {
                role = .inlineFragment(typeCondition: typeCondition, matchingTypes: matchingTypes)
            } else {
                role = .nested
            }
            // A blank line before each nested lens.
            text.add(UInt8(ascii: "\n"))
            written.path.append(index)
            if let ownName {
                written.qualifiedNames[written.path] =
                    ownName + "." + (member.quotedNestedTypeName ?? Self.rules.quoted(nestedName))
            }
            if nestedEnclosing == nil {
                var outer = enclosing
                outer.append(typeName)
                nestedEnclosing = outer
            }
            SwiftLensTemplate(
                generator: generator, lens: lens, typeName: nestedName, role: role, enclosing: nestedEnclosing ?? []
            ).write(into: &text, indent: inner, written: &written)
            written.path.removeLast()
            text.add(UInt8(ascii: "\n"))
        }
        if let builder = lens.optimisticBuilder {
            text.add(UInt8(ascii: "\n"))
            SwiftOptimisticTemplate(generator: generator, builder: builder, members: members).write(
                into: &text, indent: inner)
        }
        text.add(indent)
        text.add(UInt8(ascii: "}"))
    }

    /// Appends `lines` (nothing when it is empty) and a line break: each line that is not empty
    /// begins with `indent`, as an interpolated template's lines do.
    static func addLines(_ lines: String, indent: String, to text: inout TextBuilder) {
        guard !lines.isEmpty else { return }
        var lines = lines
        lines.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start <= bytes.count {
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? bytes.count
                if end > start {
                    text.add(indent)
                    text.add(UnsafeBufferPointer(start: base + start, count: end - start))
                }
                text.add(UInt8(ascii: "\n"))
                start = end + 1
            }
        }
    }

    /// Text written piece by piece whose lines each begin with `indent` when they are not empty: the pieces of a
    /// line, then `endLine`, write what `addLines` of the pieces joined writes, without joining them.
    struct IndentedLines {
        let indent: String
        /// Nothing is written yet on the current line (not even its indentation).
        private var atLineStart = true

        /// `atLineStart: false` continues a line already begun (its first piece gets no indentation).
        init(indent: String, atLineStart: Bool = true) {
            self.indent = indent
            self.atLineStart = atLineStart
        }

        mutating func add(_ piece: String, to text: inout TextBuilder) {
            let done: Void? = piece.utf8.withContiguousStorageIfAvailable { add(bytes: $0, to: &text) }
            if done == nil { Array(piece.utf8).withUnsafeBufferPointer { add(bytes: $0, to: &text) } }
        }

        private mutating func add(bytes: UnsafeBufferPointer<UInt8>, to text: inout TextBuilder) {
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? bytes.count
                if end > start {
                    if atLineStart {
                        text.add(indent)
                        atLineStart = false
                    }
                    text.add(UnsafeBufferPointer(start: base + start, count: end - start))
                }
                guard end < bytes.count else { return }
                text.add(UInt8(ascii: "\n"))
                atLineStart = true
                start = end + 1
            }
        }

        /// Appends `SwiftLiteral.multiline(value)`'s text, as `add` of it would: a plain text (most documents)
        /// between its delimiters, without joining them into one string first (issue 34).
        mutating func addMultilineLiteral(_ value: String, to text: inout TextBuilder) {
            guard SwiftLiteral.writesAsItIs(multiline: value) else {
                return add(SwiftLiteral.multiline(value).text, to: &text)
            }
            add(SwiftLiteral.multilineOpening, to: &text)
            add(value, to: &text)
            add(SwiftLiteral.multilineClosing, to: &text)
        }

        /// Appends `piece`, which holds no line break: what `add` writes of it, without looking for line breaks.
        mutating func addWithinLine(_ piece: String, to text: inout TextBuilder) {
            guard !piece.isEmpty else { return }
            if atLineStart {
                text.add(indent)
                atLineStart = false
            }
            text.add(piece)
        }

        /// Ends the current line with a line break.
        mutating func endLine(to text: inout TextBuilder) {
            text.add(UInt8(ascii: "\n"))
            atLineStart = true
        }
    }

    /// The runtime protocol the lens conforms to: only a lens that declares a type condition (or a fragment's name)
    /// conforms to the refinement that requires it, so no other lens carries a witness for it (Codegen.md, "Lenses").
    private var lensProtocol: String {
        switch role {
        case .operationData, .nested: return "Baton.LensType"
        case .fragment: return "Baton.FragmentLensType"
        case .inlineFragment(let typeCondition, let matchingTypes):
            return typeCondition != nil && matchingTypes != nil ? "Baton.ConditionalLensType" : "Baton.LensType"
        }
    }

    /// Writes the lens's documentation line (without its line break), piece by piece:
    ///
    ///     /// The data of the operation: a lens of `\(lens.recordType)`.                           (operation data)
    ///     /// The lens of fragment `\(fragment.name)`, reading a record of `\(typeCondition.name)`.  (fragment)
    ///     /// A lens of `\(lens.recordType)`.                                                      (nested)
    ///     /// The parent's record as `\(typeCondition ?? lens.recordType)`.                         (inline fragment)
    private func writeDocumentation(into text: inout TextBuilder) {
        switch role {
        case .operationData:
            text.add("/// The data of the operation: a lens of `")
            text.add(lens.recordType)
        case .fragment(let fragment):
            text.add("/// The lens of fragment `")
            text.add(fragment.name)
            text.add("`, reading a record of `")
            text.add(fragment.typeCondition.name)
        case .nested:
            text.add("/// A lens of `")
            text.add(lens.recordType)
        case .inlineFragment(let typeCondition, _):
            text.add("/// The parent's record as `")
            text.add(typeCondition ?? lens.recordType)
        }
        text.add("`.")
    }

    /// Writes the lens's static members, each line that is not empty beginning with `indent`, and a line break after
    /// the last (nothing for a lens without any): what `addLines` wrote of the template
    ///
    ///     \(access)static var fragmentName: String? { \(SwiftLiteral.string(fragment.name)) }
    ///     \(typeConditionMember(condition))
    ///     \(ifLet: fragment.entryPoints.refetch, { refetchableMembers($0) })
    ///     /// The fragment's definition as operations send it (their `document` joins it).
    ///     \(access)static let fragmentDocument: String = \(SwiftLiteral.multiline(text))
    ///
    /// for a fragment (the last two lines when it has a `documentText`), or of an inline fragment's type condition,
    /// written piece by piece: the fragment's text, most of a small fragment's file, is not re-indented through a
    /// template first (the literal writes no line ending in spaces).
    private func writeStaticMembers(into text: inout TextBuilder, indent: String) {
        switch role {
        case .operationData, .nested: return
        case .fragment(let fragment):
            let condition =
                SwiftTypeConditionsTemplate.reference(fragment.typeCondition).map { (text: $0, isCheap: true) }
                ?? Self.typeCondition(fragment.typeCondition.name, possibleTypes: fragment.typeCondition.possibleTypes)
            var lines = IndentedLines(indent: indent)
            lines.add(access, to: &text)
            lines.add("static var fragmentName: String? { ", to: &text)
            lines.add(SwiftLiteral.string(fragment.name), to: &text)
            lines.add(" }", to: &text)
            lines.endLine(to: &text)
            lines.add(typeConditionMember(condition), to: &text)
            lines.endLine(to: &text)
            if let refetch = fragment.entryPoints.refetch {
                lines.add(refetchableMembers(refetch).text, to: &text)
                lines.endLine(to: &text)
            }
            if let document = fragment.documentText {
                lines.add(
                    "/// The fragment's definition as operations send it (their `document` joins it).\n", to: &text)
                lines.add(access, to: &text)
                lines.add("static let fragmentDocument: String = ", to: &text)
                lines.addMultilineLiteral(document, to: &text)
                lines.endLine(to: &text)
            }
        case .inlineFragment(let typeCondition, let matchingTypes):
            guard let condition = typeCondition, let matching = matchingTypes else { return }
            Self.addLines(
                typeConditionMember(Self.typeCondition(condition, possibleTypes: matching)), indent: indent, to: &text)
        }
    }

    /// A lens's `typeCondition`: a computed property when its value is cheap to make (a name without a list of
    /// possible types, or the module's shared condition), so the module holds no lazily initialized constant, no
    /// initializer and no accessor for it (issue 34); a constant when it holds a list of possible types, which is
    /// built once.
    private func typeConditionMember(_ condition: (text: String, isCheap: Bool)) -> String {
        condition.isCheap
            ? "\(access)static var typeCondition: Baton.TypeCondition? { \(condition.text) }"
            : "\(access)static let typeCondition: Baton.TypeCondition? = \(condition.text)"
    }

    /// A `@refetchable` fragment's query, the fields down to its connection, and the variables that page it.
    private func refetchableMembers(_ refetch: RefetchEntryPoint) -> Template {
        let query =
            generator.model.operation(named: refetch.query).map {
                generator.names.operations[$0.name] ?? $0.typeName
            }
            ?? refetch.query
        var path: [String] = []
        var current = self
        var owner = "Self"
        for name in refetch.connectionPath {
            let members = current.declareMembers()
            guard let index = members.firstIndex(where: { $0.declaration.name == name }) else { break }
            path.append(Self.fieldReference(index, of: owner))
            let member = members[index]
            guard let nested = member.declaration.lens, let nestedName = member.nestedTypeName else { break }
            owner = (owner == "Self" ? "" : owner + ".") + Self.rules.quoted(nestedName)
            current = SwiftLensTemplate(
                generator: generator, lens: nested, typeName: nestedName, role: .nested,
                enclosing: current.enclosing + [current.typeName])
        }
        let paging = [
            ("forwardCount", refetch.forward?.count), ("forwardCursor", refetch.forward?.cursor),
            ("backwardCount", refetch.backward?.count), ("backwardCursor", refetch.backward?.cursor),
        ].compactMap { label, value in value.map { "\(label): \(SwiftLiteral.string($0))" } }
        return """
            /// The query that fetches this fragment's record again (`@refetchable`), and how it pages.
            \(access)typealias RefetchQuery = \(Self.rules.quoted(query))
            \(access)static let connectionPath: [Baton.Field] = [\(joined: path, separator: ", ")]
            \(access)static let paging: Baton.PagingVariables = Baton.PagingVariables(\(joined: paging, separator: ", "))
            \(access)static let refetchesThroughNode: Bool = \(refetch.throughNode ? "true" : "false")
            """
    }

    /// The qualified name, from the module-level type, of the nested lens at `path` (member indices from the root
    /// lens), as the templates name it: `IssueQuery.Data.Repository.AsIssue.Timeline`.
    private func qualifiedName(of path: [Int], root: Root?) -> String {
        let root = root ?? Root(lens: lens, typeName: typeName, enclosing: enclosing)
        var names = (root.enclosing + [root.typeName]).map(Self.rules.quoted)
        var current = SwiftLensTemplate(
            generator: generator, lens: root.lens, typeName: root.typeName, role: .nested, enclosing: root.enclosing)
        for index in path {
            let members = current.declareMembers()
            guard members.indices.contains(index), let nested = members[index].declaration.lens,
                let nestedName = members[index].nestedTypeName
            else { break }
            names.append(Self.rules.quoted(nestedName))
            current = SwiftLensTemplate(
                generator: generator, lens: nested, typeName: nestedName, role: .nested,
                enclosing: current.enclosing + [current.typeName])
        }
        return names.joined(separator: ".")
    }

    static func typeConditionLiteral(_ name: String, possibleTypes: [String]) -> String {
        typeCondition(name, possibleTypes: possibleTypes).text
    }

    /// The condition's literal, and whether it is cheap to make on every read (no list of possible types).
    static func typeCondition(_ name: String, possibleTypes: [String]) -> (text: String, isCheap: Bool) {
        let types = possibleTypes.filter { $0 != name }
        if types.isEmpty { return ("Baton.TypeCondition(\(SwiftLiteral.string(name)))", true) }
        return (
            "Baton.TypeCondition(\(SwiftLiteral.string(name)), possibleTypes: [\(types.map(SwiftLiteral.string).joined(separator: ", "))])",
            false
        )
    }

    /// Claims member names (properties) and nested type names, in the tree's order.
    ///
    /// Most lenses' names collide with nothing: each member is then named as declared (`declaredName`) and each nested
    /// lens type as preferred, which is what the scopes would hand out, found by comparing the few names a lens has
    /// (by length first) instead of filling two `NameScope`s (issue 34). A lens where some name collides claims every
    /// name in its scopes, as before.
    func declareMembers() -> [Member] {
        let declarations = lens.members
        var declared: [String] = []
        declared.reserveCapacity(declarations.count)
        for index in declarations.indices {
            declared.append(Self.rules.declaredName(declarations[index].name, in: .member))
        }
        let memberNames = Self.namesFree(declared, shared: names.moduleTypeNames) ? declared : claimMemberNames(declared)
        var members: [Member] = []
        members.reserveCapacity(declarations.count)
        for index in declarations.indices {
            let name = memberNames[index]
            members.append(Member(declaration: declarations[index], name: name, quotedName: Self.rules.quoted(name)))
        }
        // Only a lens with a nested lens claims type names (the scope holds every member's name).
        guard members.contains(where: { $0.declaration.hasLens }) else { return members }
        var preferred: [String] = []
        for member in members where member.declaration.hasLens {
            let name = member.declaration.lensTypeName ?? Casing.upperFirst(member.declaration.name)
            preferred.append(Self.rules.declaredName(name, in: .type))
        }
        let typeNames = typeNamesFree(preferred, members: members) ? preferred : claimTypeNames(preferred, members: members)
        var next = 0
        for member in members where member.declaration.hasLens {
            member.nest(as: typeNames[next])
            next += 1
        }
        return members
    }

    /// Whether `names` are distinct and none is a name every lens reserves (`memberReserved`) or one of `shared`:
    /// then a scope of those names claims each as it is.
    private static func namesFree(_ names: [String], shared: FilteredNames) -> Bool {
        for index in names.indices {
            let name = names[index]
            if isOneOf(memberReserved[...], name) || isOneOf(names[..<index], name) || shared.contains(name) {
                return false
            }
        }
        return true
    }

    /// Whether `preferred` type names are distinct and none is taken in the nested types' scope (`claimTypeNames`):
    /// then that scope claims each as it is.
    private func typeNamesFree(_ preferred: [String], members: [Member]) -> Bool {
        for index in preferred.indices {
            let name = preferred[index]
            if Self.isOneOf(SwiftNames.nestedReserved[...], name) || Self.isOneOf(enclosing[...], name)
                || Self.isOneOf(preferred[..<index], name) || name.utf8.count == typeName.utf8.count && name == typeName
                || members.contains(where: { $0.name.utf8.count == name.utf8.count && $0.name == name })
                || names.moduleTypeNames.contains(name)
            {
                return false
            }
        }
        return true
    }

    /// Whether `names` holds `name`, comparing lengths before strings.
    private static func isOneOf(_ names: ArraySlice<String>, _ name: String) -> Bool {
        let count = name.utf8.count
        return names.contains { $0.utf8.count == count && $0 == name }
    }

    /// The members' names claimed one by one in their scope, where some collide.
    private func claimMemberNames(_ declared: [String]) -> [String] {
        // Members shadow module-level types inside this type and the types nested in it, so they avoid those names.
        var memberScope = NameScope(reserved: Self.memberReserved, shared: names.moduleTypeNames)
        return declared.map { memberScope.claim($0) }
    }

    /// The nested lens types' names claimed one by one in their scope, where some collide.
    private func claimTypeNames(_ preferred: [String], members: [Member]) -> [String] {
        // One array for the reserved names, not one per `+`.
        var reserved = SwiftNames.nestedReserved
        reserved.reserveCapacity(reserved.count + enclosing.count + 1 + members.count)
        reserved.append(contentsOf: enclosing)
        reserved.append(typeName)
        for member in members { reserved.append(member.name) }
        var typeScope = NameScope(reserved: reserved, shared: names.moduleTypeNames)
        return preferred.map { typeScope.claim($0) }
    }

    /// The names every lens declares besides its members (`lens`, and the nested ones every lens reserves).
    private static let memberReserved = ["lens"] + SwiftNames.nestedReserved

    // MARK: Static data

    /// The expression of the field description at `index` of `owner`'s `selections` (`Self.selections.field(2)`):
    /// a lens keeps its field descriptions in its one `selections` table, so the module has one lazily built
    /// constant per lens, not one per field (issue 34).
    static func fieldReference(_ index: Int, of owner: String = "Self") -> String {
        owner + ".selections.field(" + String(index) + ")"
    }

    /// Appends the field's `Baton.Field` description: `Baton.Field.leaf(name, "Type!")` or
    /// `.composite(name, "Type", Nested.selections)` in the common case, a call the type checker
    /// resolves cheaply (no overloads, no defaulted parameters); `Baton.Field(...)` with only the
    /// arguments it needs otherwise.
    private func fieldDescription(_ member: Member, into text: inout TextBuilder) {
        guard case .field(_, let fieldName, let arguments) = member.declaration.source,
            let selection = member.declaration.selection
        else { return }
        let declaration = member.declaration
        if let plain = plainField(member) {
            text.add(plain.nested == nil ? "Baton.Field.leaf(" : "Baton.Field.composite(")
            SwiftLiteral.string(plain.name, into: &text)
            text.add(", ")
            SwiftLiteral.string(plain.notation, into: &text)
            if let nested = plain.nested {
                text.add(", ")
                text.add(nested)
                text.add(".selections")
            }
            text.add(UInt8(ascii: ")"))
            return
        }
        let schemaType = selection.schemaType.schemaType
        let conditions = runtimeConditions(declaration)
        let scalar = mappedScalar(declaration)
        text.add("Baton.Field(")
        SwiftLiteral.string(fieldName, into: &text)
        if fieldName != declaration.name {
            text.add(", alias: ")
            SwiftLiteral.string(declaration.name, into: &text)
        }
        if !arguments.isEmpty {
            text.add(", arguments: [")
            for (index, argument) in arguments.enumerated() {
                text.add(index == 0 ? "(" : ", (")
                SwiftLiteral.string(argument.name, into: &text)
                text.add(", ")
                text.add(SwiftInputEncoding.inputValue(argument.value))
                text.add(UInt8(ascii: ")"))
            }
            text.add(UInt8(ascii: "]"))
        }
        text.add(", type: ")
        text.add(SwiftNames.graphQLType(schemaType))
        if let nested = member.nestedTypeName {
            text.add(", selections: ")
            text.add(Self.rules.quoted(nested))
            text.add(".selections")
        }
        if let conditions {
            text.add(", conditions: ")
            text.add(conditions)
        }
        switch selection.required {
        case .log?: text.add(", required: .log")
        case .throwError?: text.add(", required: .throw")
        case .none?: text.add(", required: Baton.RequiredAction.none")
        case nil: break
        }
        switch selection.catches {
        case .result?: text.add(", catchTo: .result")
        case .null?: text.add(", catchTo: .null")
        case nil: break
        }
        if let scalar { text.add(", scalar: \(scalar).self") }
        if let connection = selection.connection {
            let filters = connection.filters.map(SwiftLiteral.string).joined(separator: ", ")
            text.add(
                ", connection: Baton.ConnectionSpec(key: \(SwiftLiteral.string(connection.key)), filters: [\(filters)])"
            )
        }
        if let update = selection.recordUpdate {
            var parts = ["." + update.kind]
            if let connections = update.connections {
                parts.append("connections: " + SwiftInputEncoding.inputValue(connections))
            }
            if let edge = update.edgeTypeName { parts.append("edgeTypename: " + SwiftLiteral.string(edge)) }
            if let type = update.typeName { parts.append("typename: " + SwiftLiteral.string(type)) }
            text.add(", update: Baton.RecordUpdate(" + parts.joined(separator: ", ") + ")")
        }
        if !selection.recordKeys.isEmpty {
            let entries = selection.recordKeys.map { key in
                SwiftLiteral.string(key.typeName) + ": [" + key.fields.map(SwiftLiteral.string).joined(separator: ", ")
                    + "]"
            }
            text.add(", keyFields: [" + entries.joined(separator: ", ") + "]")
        }
        text.add(UInt8(ascii: ")"))
    }

    /// The mapped Swift type of a custom scalar under `@required`, which its description names (`scalar: T.self`).
    private func mappedScalar(_ declaration: MemberDeclaration) -> String? {
        // `@required` first: almost no member has it, and the type's name is read only for those that do.
        guard declaration.selection?.required != nil, case .customScalar(let name) = declaration.type.named,
            let mapped = names.customScalars[name]
        else { return nil }
        return mapped
    }

    /// A field without alias, arguments or directives: its name, its schema type's notation and its nested lens
    /// type's name (nil for a scalar or an enum); nil for any other member. Its description is
    /// `Baton.Field.leaf`/`.composite`, or an entry of the lens's selection table.
    private func plainField(_ member: Member) -> (name: String, notation: String, nested: String?)? {
        let declaration = member.declaration
        guard case .field(_, let fieldName, let arguments) = declaration.source, let selection = declaration.selection,
            fieldName == declaration.name, arguments.isEmpty, Self.isAlways(declaration.runtimeCondition),
            selection.required == nil, selection.catches == nil, mappedScalar(declaration) == nil,
            selection.connection == nil, selection.recordUpdate == nil, selection.recordKeys.isEmpty
        else { return nil }
        return (
            fieldName, SwiftNames.notation(selection.schemaType),
            member.quotedNestedTypeName
        )
    }

    /// `[[]]`, the condition of a member that is always present (compared without making an array).
    private static func isAlways(_ alternatives: [[ConditionAtom]]) -> Bool {
        alternatives.count == 1 && alternatives[0].isEmpty
    }

    /// The runtime's conditions for a member that can be absent, spelling the tree's `runtimeCondition` as the
    /// Kotlin generator does: one alternative as its list of conditions, several as one `anyOf` of `allOf`s, never
    /// present as `literal(false)`; nil when it is always present.
    private func runtimeConditions(_ member: MemberDeclaration) -> String? {
        let alternatives = member.runtimeCondition
        if Self.isAlways(alternatives) { return nil }
        if alternatives.isEmpty { return "[.literal(false)]" }
        func conjunction(_ atoms: [ConditionAtom]) -> String {
            "[" + atoms.compactMap(conditionLiteral).joined(separator: ", ") + "]"
        }
        if alternatives.count == 1, let only = alternatives.first { return conjunction(only) }
        return "[.anyOf([" + alternatives.map { ".allOf(" + conjunction($0) + ")" }.joined(separator: ", ") + "])]"
    }

    /// A deferred member's label as the runtime is handed it: a string literal, or `nil`.
    private static func labelLiteral(_ delivery: MemberDelivery) -> String {
        guard case .deferred(let label?) = delivery else { return "nil" }
        return SwiftLiteral.string(label)
    }

    private func conditionLiteral(_ atom: ConditionAtom) -> String? {
        switch atom {
        case .include(let variable): return ".include(" + SwiftLiteral.string(variable) + ")"
        case .skip(let variable): return ".skip(" + SwiftLiteral.string(variable) + ")"
        case .deferred: return nil  // not in `runtimeCondition`
        }
    }

    /// Writes the lens's `selections` declaration, as `addLines` would write `access + "static let selections:
    /// [Baton.Selection] = " + initializer`. When some fields are plain (`plainField`), the initializer is a table of
    /// plain values (`Baton.Selection.table`, issue 34): those fields as `name:Type` (`name:Type:` with the next nested
    /// lens's selections) in one string, every other member as `*`, written out in order in the last array. Otherwise
    /// an array literal of the members' selections. Written piece by piece, no piece joined into a string first.
    private func writeSelections(
        _ members: [Member], plainFields: [(name: String, notation: String, nested: String?)?],
        into text: inout TextBuilder, indent: String
    ) {
        var lines = IndentedLines(indent: indent)
        lines.add(access, to: &text)
        lines.add("static let selections: [Baton.Selection] = ", to: &text)
        defer { lines.endLine(to: &text) }
        if members.isEmpty { return lines.add("[]", to: &text) }
        var others: [String] = []
        for (index, member) in members.enumerated() where plainFields[index] == nil {
            others.append(selection(member))
        }
        if others.count == members.count { return Self.writeList(others, to: &text, lines: &lines) }
        lines.add("Baton.Selection.table(", to: &text)
        let specIsPlain = plainFields.allSatisfy { plain in
            plain.map { SwiftLiteral.isPlain($0.name) && SwiftLiteral.isPlain($0.notation) } ?? true
        }
        if specIsPlain {
            // `SwiftLiteral.string` of the spec writes it as it is (a plain name or notation holds no line break).
            lines.addWithinLine("\"", to: &text)
            for (index, plain) in plainFields.enumerated() {
                if index > 0 { lines.addWithinLine(" ", to: &text) }
                guard let plain else {
                    lines.addWithinLine("*", to: &text)
                    continue
                }
                lines.addWithinLine(plain.name, to: &text)
                lines.addWithinLine(":", to: &text)
                lines.addWithinLine(plain.notation, to: &text)
                if plain.nested != nil { lines.addWithinLine(":", to: &text) }
            }
            lines.addWithinLine("\"", to: &text)
        } else {
            let spec = plainFields.map { plain in
                plain.map { $0.name + ":" + $0.notation + ($0.nested == nil ? "" : ":") } ?? "*"
            }
            lines.add(SwiftLiteral.string(spec.joined(separator: " ")), to: &text)
        }
        lines.add(", [", to: &text)
        var first = true
        for plain in plainFields {
            guard let nested = plain?.nested else { continue }
            // A nested lens's type name is an identifier: no line break.
            if !first { lines.addWithinLine(", ", to: &text) }
            first = false
            lines.addWithinLine(nested, to: &text)
            lines.addWithinLine(".selections", to: &text)
        }
        lines.add("], ", to: &text)
        Self.writeList(others, to: &text, lines: &lines)
        lines.add(")", to: &text)
    }

    /// An array literal of `entries`: on one line when there are fewer than two, else one entry a line.
    private static func writeList(_ entries: [String], to text: inout TextBuilder, lines: inout IndentedLines) {
        guard entries.count >= 2 else {
            lines.add("[", to: &text)
            if let entry = entries.first { lines.add(entry, to: &text) }
            return lines.add("]", to: &text)
        }
        lines.add("[\n    ", to: &text)
        for (index, entry) in entries.enumerated() {
            if index > 0 { lines.add(",\n    ", to: &text) }
            lines.add(entry, to: &text)
        }
        lines.add(",\n]", to: &text)
    }

    /// One member's entry of `selections` written out: a field's description, a fragment spread, an inline fragment.
    private func selection(_ member: Member) -> String {
        guard case .parentRecord(let fragment, let typeCondition, let matchingTypes) = member.declaration.source else {
            var text = TextBuilder(capacity: 96)
            text.add(".field(")
            fieldDescription(member, into: &text)
            text.add(UInt8(ascii: ")"))
            return text.text
        }
        let conditions = runtimeConditions(member.declaration) ?? "[]"
        if let fragment {
            let type = names.fragmentReference(fragment.name)
            return conditions == "[]" ? ".fragment(\(type).self)" : ".fragment(\(type).self, conditions: \(conditions))"
        }
        let nested = Self.rules.quoted(member.nestedTypeName ?? "")
        let condition = matchingTypes == nil || typeCondition == nil ? "nil" : "\(nested).typeCondition"
        return
            ".inlineFragment(typeCondition: \(condition), conditions: \(conditions), selections: \(nested).selections)"
    }

    // MARK: Accessors

    /// Writes every member's declaration, one a line (a few take several), each line that is not empty beginning with
    /// `indent`: what `addLines` of their texts joined by line breaks would write, without a string per member.
    private func writeAccessorDeclarations(_ members: [Member], into text: inout TextBuilder, indent: String) {
        for (index, member) in members.enumerated() {
            let declaration = member.declaration
            // The common case, `var name: T { lens.read(Self.selections.field(3)) }`, without its pieces as strings.
            guard declaration.readMode == .plain, Self.isAlways(declaration.runtimeCondition) else {
                Self.addLines(accessorDeclaration(member, index: index), indent: indent, to: &text)
                continue
            }
            let baseType = names.baseType(declaration.type.named, nestedName: member.quotedNestedTypeName)
            text.add(indent)
            text.add(access)
            text.add("var ")
            text.add(member.quotedName)
            text.add(": ")
            if Self.isPlainValue(declaration.type) {
                Self.writeValueType(declaration.type, base: baseType, into: &text)
            } else {
                text.add(SwiftNames.valueType(declaration.type.value, base: baseType))
            }
            text.add(" { lens.read(Self.selections.field(")
            text.add(decimal: index)
            text.add(")) }\n")
        }
    }

    /// The type holds only optionals and lists around its named type (a plain read's): its `value` is itself.
    private static func isPlainValue(_ type: DeclaredType) -> Bool {
        switch type {
        case .named: true
        case .optional(let inner), .list(let inner): isPlainValue(inner)
        case .result, .deferred, .streamed: false
        }
    }

    /// Writes `SwiftNames.valueType(type, base:)` of a type holding only optionals and lists (`isPlainValue`).
    private static func writeValueType(_ type: DeclaredType, base: String, into text: inout TextBuilder) {
        switch type {
        case .optional(let wrapped):
            writeValueType(wrapped, base: base, into: &text)
            text.add(UInt8(ascii: "?"))
        case .list(let item):
            if case .lens = item.named, case .named = item.nonOptional {
                text.add("Baton.LensList<")
                if item.isOptional {
                    text.add("Baton.NullableItem<")
                    text.add(base)
                    text.add(UInt8(ascii: ">"))
                } else {
                    text.add(base)
                }
                text.add(UInt8(ascii: ">"))
                return
            }
            text.add(UInt8(ascii: "["))
            writeValueType(item, base: base, into: &text)
            text.add(UInt8(ascii: "]"))
        default:
            text.add(base)
        }
    }

    private func accessorDeclaration(_ member: Member, index: Int) -> String {
        let declaration = member.declaration
        let name = member.quotedName
        let baseType = names.baseType(declaration.type.named, nestedName: member.quotedNestedTypeName)
        let valueType = SwiftNames.valueType(declaration.type.value, base: baseType)
        let isOptional = declaration.type.isOptional
        let isFragment: Bool
        if case .fragment = declaration.type.named { isFragment = true } else { isFragment = false }
        let field = Self.fieldReference(index)
        // A selection under @include/@skip reads nil, without a missing-data report, when it was not asked for.
        let conditions = runtimeConditions(declaration)
        let conditionCheck: String? =
            conditions.map { _ in
                if case .field = declaration.source { return "lens.includes(\(field).conditions)" }
                return "lens.includes(\(conditions ?? "[]"))"
            }
        let declared = access + "var " + name + ": "
        func plain(_ type: String, _ call: String, excluded: String = "nil") -> String {
            guard let conditionCheck else { return declared + type + " { " + call + " }" }
            return declared + type + " { " + conditionCheck + " ? " + call + " : " + excluded + " }"
        }
        func throwing(_ type: String, _ call: String) -> String {
            guard let conditionCheck else {
                return declared + type + " { get throws(Baton.ReadError) { try " + call + " } }"
            }
            return declared + type + " {\n    get throws(Baton.ReadError) {\n        guard " + conditionCheck
                + " else { return nil }\n        return try " + call + "\n    }\n}"
        }
        switch declaration.readMode {
        case .spread:
            // A named fragment's spread reads as the `Baton.Fragment` a parent passes to the fragment's view.
            if isFragment {
                let reference = "Baton.Fragment<" + baseType + ">"
                if isOptional { return plain(reference + "?", "lens.spread(\(baseType).self)") }
                return plain(reference, "Baton.Fragment(lens: lens)")
            }
            if isOptional { return plain(baseType + "?", "lens.as(\(baseType).self)") }
            return plain(baseType, "\(baseType)(lens: lens)")
        case .deferred:
            // A deferred spread or inline fragment reads as its phase: pending, ready with its lens, failed.
            let label = Self.labelLiteral(declaration.delivery)
            let (phase, call): (String, String)
            if isFragment {
                phase = "Baton.DeferredPhase<Baton.Fragment<" + baseType + ">>"
                call = "lens.deferred(\(baseType).self, label: \(label))"
            } else {
                phase = "Baton.DeferredPhase<" + baseType + ">"
                call = "lens.deferredAs(\(baseType).self, label: \(label))"
            }
            if isOptional { return plain(phase + "?", call) }
            return plain(phase, call + " ?? .pending")
        case .streamed:
            // A streamed list reads the items so far, whether more are coming, and the initial count asked for.
            guard case .streamed(let initialCount) = declaration.delivery else {
                return plain(valueType, "lens.read(\(field))")
            }
            let count =
                switch initialCount {
                case .literal(let value): ".literal(\(value))"
                case .variable(let name): ".variable(" + SwiftLiteral.string(name) + ")"
                }
            return plain(
                "Baton.Streamed<" + valueType + ">", "lens.streamed(\(field), initialCount: \(count))",
                excluded: ".absent")
        case .typename:
            return plain(valueType, isOptional ? "lens.typename" : "lens.typename ?? \"\"")
        case .catchToResult:
            return plain(
                "Swift.Result<\(valueType), Baton.FieldErrors>", "lens.caught(\(field))", excluded: ".success(nil)")
        case .catchToNull:
            return plain(valueType, "lens.caughtToNull(\(field))")
        case .throwWhenNull:
            return throwing(valueType, "lens.requiredOrThrow(\(field))")
        case .throwOnFieldError:
            return throwing(valueType, "lens.strict(\(field))")
        case .plain:
            return plain(valueType, "lens.read(\(field))")
        }
    }
}
