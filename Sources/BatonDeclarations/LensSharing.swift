/// Which nested lenses of one declaration are the same type (issue 34): decided once here, on the tree, and printed
/// by each printer as a name for the earlier type (`MemberDeclaration.sharedLens`) or ignored.
///
/// **Equal** means: two members of the same operation's or fragment's lens tree whose nested lenses
/// (`LensDeclaration`) are equal in everything but their own type name — record type, abstractness and possible
/// types, identity, connection id, optimistic builder, and every member all the way down: its name, source (response
/// key, field name, arguments), declared type (each level's nullability), read mode, conditions, delivery, field
/// selection (schema type, `@required`, `@catch`, `@connection`, updates, record keys), the nested lenses' type names
/// and their getters — and whose sources are of the same kind: both fields, or both the parent's record under the
/// same type condition and matching types with the same spread (an inline fragment's lens declares its condition).
/// An alias, a nullability, a read mode, a directive or one more field anywhere inside makes them different.
///
/// **Why it is safe.** A generated lens type is a function of its `LensDeclaration` and its role (field or inline
/// fragment): its accessors read by its own field descriptions (`selections`), which are built from the declaration
/// alone, and the runtime reads a record by the description it is handed, so two paths with equal selections read
/// alike through one type; the parent's own field (its alias, arguments, conditions, nullability, `@defer`) stays in
/// the parent's description and accessor, which are not shared. Nested type names inside are the declaration's
/// (`LensNaming` keeps them apart from their ancestors), so the shared type's inner names are the ones either copy
/// would have had.
///
/// Only within one declaration (a file): a lens is shared with the first equal one in pre-order (members in order,
/// each nested lens before the next member), which is itself declared in full; the lenses inside a shared one are not
/// visited again. Linear in the tree's size, with one full comparison per candidate of the same record type and
/// member names.
package enum LensSharing {
    /// `lens` with every nested lens equal to an earlier one marked `sharedLens` (the path to that one).
    package static func mark(_ lens: consuming LensDeclaration) -> LensDeclaration {
        // Found first without changing the tree (most declarations share nothing, and a lens changed while it is
        // also held by `seen` would be copied), then each mark set along its path.
        var marks: [(path: [Int], shared: [Int])] = []
        var seen: [Signature: [(path: [Int], member: MemberDeclaration)]] = [:]
        var path: [Int] = []
        visit(lens, path: &path, seen: &seen, marks: &marks)
        guard !marks.isEmpty else { return lens }
        seen = [:]
        // Taken over, not copied: a tree the caller no longer holds has its members arrays and storages changed in
        // place rather than copied along each mark's path.
        var root = consume lens
        for mark in marks { set(mark.shared, at: mark.path[...], in: &root) }
        return root
    }

    /// Marks the member at `path` (member indices from `lens`) as sharing the lens at `shared`.
    private static func set(_ shared: [Int], at path: ArraySlice<Int>, in lens: inout LensDeclaration) {
        guard let index = path.first, lens.members.indices.contains(index) else { return }
        guard path.count > 1 else {
            lens.members[index].sharedLens = shared
            return
        }
        // Taken out of the member while it changes, so its members are held once and changed in place.
        guard var inner = lens.members[index].lens else { return }
        lens.members[index].lens = nil
        set(shared, at: path.dropFirst(), in: &inner)
        lens.members[index].lens = inner
    }

    /// A cheap bucket for candidates: equal lenses have equal signatures. The number of members, the source's kind and
    /// the record type's and the first member's name's lengths and first bytes, folded into one integer and read off
    /// the lens in place: no string is hashed (a candidate is then checked name by name, `sameMemberNames`, before the
    /// full comparison, which compares the record types and the sources).
    private typealias Signature = Int

    private static func signature(of nested: LensDeclaration, isInlineFragment: Bool) -> Signature {
        var signature = nested.members.count << 1 | (isInlineFragment ? 1 : 0)
        signature = signature &* 31 &+ shape(of: nested.recordType)
        if let first = nested.members.first { signature = signature &* 31 &+ shape(of: first.name) }
        return signature
    }

    /// A name's length and first byte, as one integer.
    private static func shape(of name: String) -> Int {
        let utf8 = name.utf8
        return utf8.count << 8 | Int(utf8.first ?? 0)
    }

    private static func visit(
        _ lens: LensDeclaration, path: inout [Int],
        seen: inout [Signature: [(path: [Int], member: MemberDeclaration)]], marks: inout [(path: [Int], shared: [Int])]
    ) {
        for index in lens.members.indices {
            guard let nested = lens.members[index].lens else { continue }
            let member = lens.members[index]
            var isInlineFragment = false
            if case .parentRecord = member.source { isInlineFragment = true }
            let signature = signature(of: nested, isInlineFragment: isInlineFragment)
            path.append(index)
            defer { path.removeLast() }
            if let earlier = seen[signature]?.first(where: {
                sameMemberNames(nested, $0.member.lens) && same(member, $0.member)
            }) {
                marks.append((path, earlier.path))
                continue
            }
            seen[signature, default: []].append((path, member))
            visit(nested, path: &path, seen: &seen, marks: &marks)
        }
    }

    /// The two lenses' members have the same names, in order: `same` implies it, and a candidate with other members
    /// is refuted by their names alone, not compared in full.
    private static func sameMemberNames(_ one: LensDeclaration, _ other: LensDeclaration?) -> Bool {
        guard let other, one.members.count == other.members.count else { return false }
        for index in one.members.indices where one.members[index].name != other.members[index].name { return false }
        return true
    }

    /// The two members' nested lenses are one type (see the type's documentation).
    package static func same(_ one: MemberDeclaration, _ other: MemberDeclaration) -> Bool {
        guard var first = one.lens, var second = other.lens else { return false }
        switch (one.source, other.source) {
        case (.field, .field): break
        case (.parentRecord, .parentRecord) where one.source == other.source: break
        default: return false
        }
        first.typeName = ""
        second.typeName = ""
        return first == second
    }
}
