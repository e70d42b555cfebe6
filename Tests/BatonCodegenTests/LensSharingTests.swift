import BatonCompiler
import BatonDeclarations
import BatonIR
import BatonTestSupport
import Foundation
import Testing

/// Equal nested lenses are one type (`LensSharing`, issue 34): the tree decides which nested lens is the same type as
/// an earlier one, and what "equal" takes into account; the Swift printer declares the shared ones as typealiases
/// (the generator fixture `shared-lenses` shows the text and compiles it).
@Suite struct LensSharingTests {
    /// The fixture's operation lens as the generators lower it.
    static func sharedLenses() throws -> LensDeclaration {
        let model = try DeclarationTreeTests.model("shared-lenses.graphql")
        let operation = try #require(model.operation(named: "SharedLenses"))
        return DeclarationLowering(model).operation(operation).lens
    }

    /// The nested lens at `path` (member indices from `root`), by its type names (`Data.Viewer.Organization`).
    static func name(of path: [Int], in root: LensDeclaration) -> String {
        var lens = root
        var names = ["Data"]
        for index in path {
            guard lens.members.indices.contains(index), let nested = lens.members[index].lens else {
                return "<no lens at \(path)>"
            }
            names.append(nested.typeName)
            lens = nested
        }
        return names.joined(separator: ".")
    }

    /// Every nested lens: the shared ones with the lens they are, the others declared in full.
    static func walk(_ root: LensDeclaration) -> (shared: [String: String], declared: [String]) {
        var shared: [String: String] = [:]
        var declared: [String] = []
        func visit(_ lens: LensDeclaration, _ name: String) {
            for member in lens.members {
                guard let nested = member.lens else { continue }
                let nestedName = name + "." + nested.typeName
                if let path = member.sharedLens {
                    shared[nestedName] = Self.name(of: path, in: root)
                } else {
                    declared.append(nestedName)
                    visit(nested, nestedName)
                }
            }
        }
        visit(root, "Data")
        return (shared, declared)
    }

    /// Equal selections share whatever the parent's field says (its name, alias, condition); a difference inside the
    /// selection (an alias, `@required`'s nullability, `@catch`'s read mode, a condition) keeps a lens of its own.
    @Test func equalSelectionsShareAndDifferencesDoNot() throws {
        let (shared, declared) = Self.walk(try Self.sharedLenses())
        #expect(
            shared == [
                "Data.Viewer.Friends": "Data.Viewer.Organization.Members",
                "Data.Actors.AsUser.Organization": "Data.Viewer.Organization",
                "Data.Actors.AsUser.Boss": "Data.Viewer.Organization",
                "Data.Actors.AsUser.Friends": "Data.Viewer.Organization.Members",
                "Data.Node.AsUser.Aliased.Members": "Data.Viewer.Organization.Members",
                "Data.Node.AsUser.Required.Members": "Data.Viewer.Organization.Members",
                "Data.Node.AsUser.Caught.Members": "Data.Viewer.Organization.Members",
                "Data.Node.AsUser.Conditional.Members": "Data.Viewer.Organization.Members",
            ])
        #expect(
            declared == [
                "Data.Viewer", "Data.Viewer.Organization", "Data.Viewer.Organization.Members", "Data.Actors",
                "Data.Actors.AsUser", "Data.Actors.AsBot", "Data.Node", "Data.Node.AsUser", "Data.Node.AsUser.Aliased",
                "Data.Node.AsUser.Required", "Data.Node.AsUser.Caught", "Data.Node.AsUser.Conditional",
            ])
    }

    /// What "equal" compares: the nested lens in full but its own type name, and the kind of source (a field's lens
    /// and an inline fragment's are not one type). Each single change inside the lens (a member's nullability, read
    /// mode, response key, condition, a nested type name) makes two lenses different.
    @Test func equalityIsTheWholeLensButItsName() throws {
        let root = try Self.sharedLenses()
        let viewer = try #require(root.members.first { $0.name == "viewer" }?.lens)
        let organization = try #require(viewer.members.first { $0.name == "organization" })
        let lens = try #require(organization.lens)
        #expect(LensSharing.same(organization, organization))

        var renamed = organization
        renamed.lens?.typeName = "Boss"
        let renamedShares = LensSharing.same(organization, renamed)
        #expect(renamedShares, "the lens's own name is not part of its shape")

        let name = try #require(lens.members.firstIndex { $0.name == "name" })
        func changed(_ change: (inout MemberDeclaration) -> Void) -> MemberDeclaration {
            var copy = organization
            change(&copy.lens!.members[name])
            return copy
        }
        let nonNull = changed { $0.type = $0.type.nonOptional }
        let nonNullShares = LensSharing.same(organization, nonNull)
        #expect(!nonNullShares, "nullability")
        let caught = changed { $0.readMode = .catchToNull }
        let caughtShares = LensSharing.same(organization, caught)
        #expect(!caughtShares, "read mode")
        let aliased = changed { $0.name = "title" }
        let aliasedShares = LensSharing.same(organization, aliased)
        #expect(!aliasedShares, "alias")
        let conditional = changed { $0.runtimeCondition = [[.include(variable: "a")]] }
        let conditionalShares = LensSharing.same(organization, conditional)
        #expect(!conditionalShares, "condition")
        var nestedRenamed = organization
        let members = try #require(lens.members.firstIndex { $0.name == "members" })
        nestedRenamed.lens!.members[members].lens!.typeName = "People"
        let nestedRenamedShares = LensSharing.same(organization, nestedRenamed)
        #expect(!nestedRenamedShares, "a nested lens's type name")

        var inline = organization
        inline.source = .parentRecord(fragment: nil, typeCondition: "Organization", matchingTypes: ["Organization"])
        let inlineShares = LensSharing.same(organization, inline)
        #expect(!inlineShares, "a field's lens and an inline fragment's")
    }

    /// Candidates are looked for past the lenses of the same record type, member count and first member whose later
    /// members differ: a lens shares the first equal one, not the first alike.
    @Test func sharesTheFirstEqualLensPastAlikeOnes() throws {
        let root = try Self.sharedLenses()
        let viewer = try #require(root.members.first { $0.name == "viewer" }?.lens)
        let organization = try #require(viewer.members.first { $0.name == "organization" })
        let lens = try #require(organization.lens)
        let name = try #require(lens.members.firstIndex { $0.name == "name" })
        try #require(name > 0, "a member after the first one is renamed")
        var other = organization
        other.lens?.members[name].name = "title"
        var tree = lens
        tree.members = [organization, other, other, organization]
        for index in tree.members.indices { tree.members[index].lens?.typeName = "Lens\(index)" }
        let marked = LensSharing.mark(tree)
        #expect(marked.members.map(\.sharedLens) == [nil, nil, [1], [0]])
    }

    /// `LensDeclaration.sharesLens` (read in place by the Swift printer) says whether some member at any depth below the
    /// lens is marked `sharedLens`: for the fixture's tree and each of its nested lenses, with every mark removed, and
    /// with only one mark kept at each marked path in turn (most marks are two or more levels down).
    @Test func sharesLensFindsAMarkAtAnyDepth() throws {
        let root = try Self.sharedLenses()
        /// The paths of the marked members and the lenses below the root, found through copies of each nested lens.
        func marks(_ lens: LensDeclaration, _ path: [Int] = []) -> [[Int]] {
            lens.members.indices.flatMap { index -> [[Int]] in
                let member = lens.members[index]
                let own: [[Int]] = member.sharedLens == nil ? [] : [path + [index]]
                return own + (member.lens.map { marks($0, path + [index]) } ?? [])
            }
        }
        func lenses(_ lens: LensDeclaration) -> [LensDeclaration] {
            [lens] + lens.members.flatMap { $0.lens.map(lenses) ?? [] }
        }
        /// `lens` with every mark removed but the one at `kept`.
        func keeping(_ kept: [Int]?, in lens: LensDeclaration, _ path: [Int] = []) -> LensDeclaration {
            var lens = lens
            for index in lens.members.indices {
                if path + [index] != kept { lens.members[index].sharedLens = nil }
                if let nested = lens.members[index].lens {
                    lens.members[index].lens = keeping(kept, in: nested, path + [index])
                }
            }
            return lens
        }
        let marked = marks(root)
        try #require(marked.contains { $0.count > 2 }, "the fixture marks a lens two levels down")
        #expect(root.sharesLens)
        for lens in lenses(root) { #expect(lens.sharesLens == !marks(lens).isEmpty) }
        let bare = keeping(nil, in: root)
        #expect(!bare.sharesLens)
        #expect(lenses(bare).allSatisfy { !$0.sharesLens })
        for path in marked {
            let one = keeping(path, in: root)
            #expect(marks(one) == [path])
            #expect(one.sharesLens, "only \(path) marked")
        }
    }
}
