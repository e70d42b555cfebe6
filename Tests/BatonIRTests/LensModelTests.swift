import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

/// The model's details that plates do not print: names, reads, levels, document text,
/// operation ids, variables and used types; and the seed's Plate 1 cell by cell.
final class LensModelTests: XCTestCase {
    /// Builds a model from documents against `Fixtures/schema.graphql` (or the given case text).
    func build(_ documents: String, configuration: String? = nil) throws -> PlateFixtures.Built {
        var text = "#- documents.graphql\n" + documents
        if let configuration { text = "#- baton.json\n" + configuration + "\n" + text }
        let built = try PlateFixtures.build(name: "test.graphql", text: text)
        XCTAssertEqual(built.diagnostics.map(\.message), [])
        return built
    }

    /// The seed's Plate 1, row by row: depth, accessor, reads, as.
    func testPlateOneCellByCell() throws {
        let url = PlateFixtures.fixtures.appendingPathComponent("plates/plate-1-repository-query.graphql")
        let built = try PlateFixtures.build(FixtureCase(suite: "plates", file: url))
        let operation = try XCTUnwrap(built.model.operation(named: "RepositoryQuery"))
        let rows = Plate(subject: .operation(operation)).rows
        let expected: [(Int, String, String, String)] = [
            (0, "repository", "repository", "a lens of Repository, a Result, under @catch"),
            (1, "nameWithOwner", "nameWithOwner", "a scalar"),
            (1, "description", "description", "a scalar, optional"),
            (1, "issues", "issues", "a lens of IssueConnection"),
            (2, "nodes", "nodes", "a lens of Issue, a list, optional"),
            (3, "id", "id", "a scalar"),
            (3, "issueRow", "the parent's record", "the lens of IssueRow_issue, optional"),
        ]
        XCTAssertEqual(rows.count, expected.count)
        for (row, want) in zip(rows, expected) {
            XCTAssertEqual(row, PlateRow(depth: want.0, accessor: want.1, reads: want.2, phrase: want.3))
        }
        // The seed's layout: two spaces of indent per level in the accessor column.
        let text = PlateRenderer.table(rows).split(separator: "\n").map(String.init)
        XCTAssertTrue(text[0].hasPrefix("accessor "))
        XCTAssertTrue(text[5].hasPrefix("    nodes "))
        XCTAssertTrue(text[7].hasPrefix("      issueRow "))

        // What the generators read: the Result's success value is optional; nodes is [Issue?]?.
        let repository = try XCTUnwrap(operation.lens.accessors.first)
        XCTAssertEqual(repository.catchMode, .result)
        XCTAssertFalse(repository.isOptional)
        XCTAssertEqual(repository.levels, [ValueLevel(schemaNullable: true, isOptional: true)])
        let nodes = try XCTUnwrap(repository.lens?.accessors[2].lens?.accessors.first)
        XCTAssertEqual(nodes.levels.map(\.isOptional), [true, true])
        let issueRow = try XCTUnwrap(nodes.lens?.accessors.last)
        XCTAssertTrue(issueRow.receivesBubbledNull)
        let fragment = try XCTUnwrap(built.model.fragment(named: "IssueRow_issue"))
        XCTAssertTrue(fragment.rootCanBeNil)
        XCTAssertEqual(fragment.spreadAccessorName, "issueRow")
        let author = try XCTUnwrap(fragment.lens.accessors.last)
        XCTAssertEqual(
            author.required,
            RequiredEffect(
                action: .log, bubblesTo: .fragmentSpread(fragment: "IssueRow_issue", accessorName: "issueRow")))
        XCTAssertEqual(author.levels, [ValueLevel(schemaNullable: true, isOptional: false)])

        // Sent text: client directives stripped, __typename added, fragments appended.
        XCTAssertEqual(
            operation.documentText,
            """
            query RepositoryQuery($owner: String!, $name: String!) {
              repository(owner: $owner, name: $name) {
                nameWithOwner
                description
                issues(first: 5, states: OPEN) {
                  nodes {
                    id
                    ...IssueRow_issue
                    __typename
                  }
                  __typename
                }
                __typename
              }
            }

            fragment IssueRow_issue on Issue {
              number
              title
              author {
                login
                __typename
              }
            }
            """)
        XCTAssertEqual(operation.fragmentsUsed, ["IssueRow_issue"])
        XCTAssertEqual(operation.variables.map(\.name), ["owner", "name"])
        XCTAssertEqual(operation.variables.map(\.type.description), ["String!", "String!"])
        XCTAssertEqual(operation.usedTypes.enums, [])
    }

    func testReadsArgumentsSortedAndAliases() throws {
        let built = try build(
            """
            query Q($after: String) { me: viewer { pals: friends(after: $after, first: 2) { login } } }
            """)
        let me = try XCTUnwrap(built.model.operations.first?.lens.accessors.first)
        XCTAssertEqual(me.name, "me")
        guard case .field(let read) = me.reads else { return XCTFail("a field read") }
        XCTAssertEqual(read.fieldName, "viewer")
        let pals = try XCTUnwrap(me.lens?.accessors.first)
        guard case .field(let palsRead) = pals.reads else { return XCTFail("a field read") }
        XCTAssertEqual(palsRead.arguments.map(\.name), ["after", "first"])
        XCTAssertEqual(palsRead.arguments.map { ValueText.print($0.value) }, ["$after", "2"])
        XCTAssertEqual(palsRead.schemaType.description, "[User]")
        XCTAssertEqual(palsRead.parentType, "User")
        XCTAssertEqual(pals.lens?.typeName, "Pals")
        XCTAssertEqual(me.lens?.typeName, "Me")
    }

    /// An accessor holds its fields behind one reference (copied on write): still a value, so a change to a copy,
    /// of any field and of its nested lens, leaves the original and every other copy as they were.
    func testAccessorIsAValue() throws {
        let built = try build(
            """
            query Q { viewer { login bestFriend { login } } }
            """)
        let original = try XCTUnwrap(built.model.operations.first?.lens.accessors.first)
        let kept = original
        var changed = original
        changed.name = "other"
        changed.levels = [ValueLevel(schemaNullable: true, isOptional: true)]
        changed.recordKeys = [RecordKeyModel(typeName: "User", fields: ["login"])]
        changed.catchMode = .null
        guard case .lens(var nested) = changed.base else { return XCTFail("a nested lens") }
        nested.accessors[0].name = "renamed"
        nested.accessors.removeLast()
        changed.base = .lens(nested)
        for accessor in [original, kept] {
            XCTAssertEqual(accessor.name, "viewer")
            XCTAssertEqual(accessor.levels, [ValueLevel(schemaNullable: false, isOptional: false)])
            XCTAssertEqual(accessor.recordKeys, [])
            XCTAssertNil(accessor.catchMode)
            XCTAssertEqual(accessor.lens?.accessors.map(\.name), ["login", "bestFriend"])
        }
        XCTAssertEqual(changed.name, "other")
        XCTAssertEqual(changed.levels, [ValueLevel(schemaNullable: true, isOptional: true)])
        XCTAssertEqual(changed.recordKeys.map(\.typeName), ["User"])
        XCTAssertEqual(changed.catchMode, .null)
        XCTAssertEqual(changed.lens?.accessors.map(\.name), ["renamed"])
        XCTAssertEqual(built.model.operations.first?.lens.accessors.first?.name, "viewer")
    }

    /// Every lens of a mutation, and of each fragment a mutation spreads (and no other), names its optimistic
    /// builder apart from its own accessor and nested type names and from every enclosing type's name.
    func testOptimisticBuildersNamedInEveryNestedLens() throws {
        let built = try build(
            """
            mutation Close { closeIssue(number: 1) { optimistic: author { login } ...Row } }
            fragment Row on Issue { title assignee { login } }
            fragment Other on Issue { assignee { login } }
            query Q { issue(number: 2) { ...Other } }
            """)
        let close = try XCTUnwrap(built.model.operation(named: "Close"))
        XCTAssertEqual(close.lens.optimisticTypeName, "Optimistic")
        let issue = try XCTUnwrap(close.lens.accessors.first?.lens)
        // `optimistic: author` nests a type `Optimistic`, so the issue's builder is numbered; inside that type,
        // its own name is an enclosing one.
        XCTAssertEqual(issue.optimisticTypeName, "Optimistic2")
        XCTAssertEqual(issue.accessors.first?.lens?.typeName, "Optimistic")
        XCTAssertEqual(issue.accessors.first?.lens?.optimisticTypeName, "Optimistic2")
        let row = try XCTUnwrap(built.model.fragment(named: "Row"))
        XCTAssertEqual(row.lens.optimisticTypeName, "Optimistic")
        XCTAssertEqual(row.lens.accessors.last?.lens?.optimisticTypeName, "Optimistic")
        let other = try XCTUnwrap(built.model.fragment(named: "Other"))
        XCTAssertNil(other.lens.optimisticTypeName)
        XCTAssertNil(other.lens.accessors.first?.lens?.optimisticTypeName)
        let query = try XCTUnwrap(built.model.operation(named: "Q"))
        XCTAssertNil(query.lens.optimisticTypeName)
        XCTAssertNil(query.lens.accessors.first?.lens?.optimisticTypeName)
    }

    func testNestedTypeNamesAreUniqueAmongAncestorsAndSiblings() throws {
        let built = try build(
            """
            query Viewer { viewer { bestFriend { bestFriend { login } } best: bestFriend { login } } }
            """)
        let viewer = try XCTUnwrap(built.model.operations.first?.lens.accessors.first?.lens)
        // "Viewer" is the operation's own name, so the nested lens of `viewer` is Viewer2.
        XCTAssertEqual(viewer.typeName, "Viewer2")
        let bestFriend = try XCTUnwrap(viewer.accessors.first?.lens)
        XCTAssertEqual(bestFriend.typeName, "BestFriend")
        XCTAssertEqual(bestFriend.accessors.first?.lens?.typeName, "BestFriend2")
        XCTAssertEqual(viewer.accessors.last?.lens?.typeName, "Best")
    }

    func testNamingRules() {
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "IssueRow_issue"), "issueRow")
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "RepoFields"), "repoFields")
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "URLFields_user"), "urlFields")
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "_Row_x"), "row")
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "URL"), "url")
        XCTAssertEqual(LensNaming.spreadAccessorName(fragment: "__"), "__")
        XCTAssertEqual(LensNaming.typeConditionAccessorName(type: "User"), "asUser")
        XCTAssertEqual(LensNaming.upperCamel("nameWithOwner"), "NameWithOwner")
        // Only a first ASCII lower-case letter changes; the rest is kept byte for byte, past a small string's length.
        XCTAssertEqual(LensNaming.upperCamel("a"), "A")
        XCTAssertEqual(LensNaming.upperCamel("z_"), "Z_")
        XCTAssertEqual(LensNaming.upperCamel("Issues"), "Issues")
        XCTAssertEqual(LensNaming.upperCamel("_issues"), "_issues")
        XCTAssertEqual(LensNaming.upperCamel(""), "")
        XCTAssertEqual(LensNaming.upperCamel("éa"), "éa")
        XCTAssertEqual(LensNaming.upperCamel("aé"), "Aé")
        XCTAssertEqual(
            LensNaming.upperCamel("pullRequestReviewThreadsConnection"), "PullRequestReviewThreadsConnection")
        XCTAssertEqual(LensNaming.nestedTypeName(accessor: "node", taken: ["Node", "Node2"]), "Node3")
    }

    func testUsedTypesFromSelectionsAndVariables() throws {
        let built = try build(
            """
            query Issues($filter: IssueFilter, $first: Int = 5) {
              issues(filter: $filter, first: $first) { state closedAt }
              viewer { avatarUrl }
            }
            """,
            configuration:
                #"{ "schema": "schema.graphql", "customScalarTypes": { "DateTime": { "swift": "Foundation.Date" } }, "onError": "NULL" }"#
        )
        let operation = try XCTUnwrap(built.model.operations.first)
        XCTAssertEqual(operation.usedTypes.enums, ["Role", "State"])
        XCTAssertEqual(operation.usedTypes.inputObjects, ["IssueFilter", "LabelFilter"])
        XCTAssertEqual(operation.usedTypes.customScalars, ["DateTime", "URI"])
        XCTAssertEqual(operation.onError, "NULL")
        XCTAssertEqual(operation.variables.last?.defaultValue.map(ValueText.print), "5")
        XCTAssertEqual(operation.variables.map(\.isOptional), [true, true])
        let types = built.model.types
        XCTAssertEqual(types.enums.map(\.name), ["Role", "State"])
        XCTAssertEqual(types.enums.first?.values.map(\.name), ["ADMIN", "MEMBER", "GUEST"])
        XCTAssertEqual(types.inputObjects.first?.fields.map(\.name), ["states", "assignee", "since", "nested"])
        XCTAssertEqual(types.customScalars.map(\.name), ["DateTime", "URI"])
        XCTAssertEqual(types.customScalars.first?.mapping?.swiftType, "Foundation.Date")
        XCTAssertNil(types.customScalars.last?.mapping)
    }

    func testDocumentTextAndOperationId() throws {
        let built = try build(
            """
            query Search {
              search(query: "x") { ... on User { login ...Card_user } ... on Node { id } }
            }
            fragment Card_user on User { name login }
            """)
        let operation = try XCTUnwrap(built.model.operations.first)
        // The persisted-query id is decided once, in the plan: the SHA-256 of what is sent.
        XCTAssertEqual(operation.operationID, SHA256.hexDigest(operation.documentText))
        XCTAssertEqual(operation.operationID.count, 64)
        XCTAssertTrue(operation.documentText.contains("search(query: \"x\") {"))
        XCTAssertTrue(operation.documentText.hasSuffix("fragment Card_user on User {\n  name\n  login\n}"))
    }

    func testSemanticNonNullOnlyUnderThrowOnFieldError() throws {
        let built = try build(
            """
            query Strict @throwOnFieldError { profile(login: "a") { links } }
            query Loose { profile(login: "a") { links } }
            """)
        let strict = try XCTUnwrap(built.model.operation(named: "Strict")?.lens.accessors.first?.lens?.accessors.first)
        XCTAssertEqual(strict.levels.map(\.isOptional), [false, false])
        XCTAssertEqual(strict.semanticNonNull, [0, 1])
        XCTAssertTrue(strict.underThrowOnFieldError)
        let loose = try XCTUnwrap(built.model.operation(named: "Loose")?.lens.accessors.first?.lens?.accessors.first)
        XCTAssertEqual(loose.levels.map(\.isOptional), [true, true])
        XCTAssertNil(loose.semanticNonNull)
    }

    func testRequiredChainTargets() throws {
        let built = try build(
            """
            query Chain {
              issue(number: 1) { assignee @required(action: NONE) { bestFriend @required(action: LOG) { name @required(action: LOG) } } }
            }
            """)
        let issue = try XCTUnwrap(built.model.operations.first?.lens.accessors.first)
        let assignee = try XCTUnwrap(issue.lens?.accessors.first)
        let bestFriend = try XCTUnwrap(assignee.lens?.accessors.first)
        let name = try XCTUnwrap(bestFriend.lens?.accessors.first)
        XCTAssertEqual(name.required?.bubblesTo, .accessor(path: ["issue"]))
        XCTAssertEqual(bestFriend.required?.bubblesTo, .accessor(path: ["issue"]))
        XCTAssertTrue(issue.receivesBubbledNull)
        XCTAssertTrue(issue.isOptional)
        XCTAssertFalse(assignee.isOptional)
    }

    func testJSONCarriesTheModel() throws {
        let built = try build("query One { viewer { login ... on User @include(if: true) { name } } }")
        let json = LensModelJSON.model(built.model).rendered()
        XCTAssertTrue(json.contains(#""version": 2"#))
        XCTAssertTrue(json.contains(#""field": "login""#))
        XCTAssertTrue(json.contains(#""levels": ["#))
        XCTAssertTrue(json.contains(#""file": "documents.graphql""#))
        // Parses as JSON.
        guard case .success = JSONParser.parse(Array(json.utf8)) else { return XCTFail("invalid JSON:\n\(json)") }
    }

    func testCatalogLookups() throws {
        let built = try build(
            """
            query RepoQuery { viewer { ...Row_user bestFriend { login } } }
            query OtherQuery { user(login: "a") { login } }
            mutation Close { closeIssue(number: 1) { id } }
            fragment Row_user on User { name }
            """)
        let catalog = PlateCatalog(model: built.model, schemaTypeNames: try XCTUnwrap(built.schema).typeNames)
        guard case .plates(let one) = catalog.lookup("RepoQuery") else { return XCTFail("an operation") }
        XCTAssertEqual(one.map(\.name), ["RepoQuery"])
        guard case .plates(let queries) = catalog.lookup("Query") else { return XCTFail("a type") }
        XCTAssertEqual(queries.map(\.name), ["OtherQuery", "RepoQuery"])
        guard case .plates(let users) = catalog.lookup("User") else { return XCTFail("a type") }
        XCTAssertEqual(
            users.map(\.name), ["Row_user", "OtherQuery.user", "RepoQuery.viewer", "RepoQuery.viewer.bestFriend"])
        guard case .typeWithoutLenses("Bot") = catalog.lookup("Bot") else { return XCTFail("a type without lenses") }
        guard case .unknown(let suggestions) = catalog.lookup("RepoQeury") else { return XCTFail("unknown") }
        XCTAssertEqual(suggestions.first, "RepoQuery")
        guard case .unknown(let none) = catalog.lookup("zzzzzzzzzzzz") else { return XCTFail("unknown") }
        XCTAssertEqual(none, [])
    }

    func testMarkdownAndTextFormats() throws {
        let built = try build("query Md { viewer { bestFriend { login } } }")
        let plates = built.model.operations.map { Plate(subject: .operation($0)) }
        XCTAssertEqual(
            PlateRenderer.render(plates, format: .markdown),
            """
            The lens of Md, an operation's data, reads a record of type Query:

            | accessor | reads | as |
            | --- | --- | --- |
            | viewer | viewer | a lens of User |
            | &nbsp;&nbsp;bestFriend | bestFriend | a lens of User, optional |
            | &nbsp;&nbsp;&nbsp;&nbsp;login | login | a scalar |

            """)
        XCTAssertEqual(
            PlateRenderer.render(plates, format: .text),
            """
            The lens of Md, an operation's data, reads a record of type Query:
            accessor      reads       as
            viewer        viewer      a lens of User
              bestFriend  bestFriend  a lens of User, optional
                login     login       a scalar

            """)
    }

    /// A chain of 5,000 fragments, each spreading the next: built without deep recursion.
    func testLongFragmentChainDoesNotOverflow() throws {
        var text = "query Chain { viewer { ...F0_user } }\n"
        let count = 5000
        for index in 0..<count {
            let next = index + 1 < count ? " ...F\(index + 1)_user" : ""
            text += "fragment F\(index)_user on User { login\(next) }\n"
        }
        let built = try PlateFixtures.build(name: "chain.graphql", text: "#- chain.graphql\n" + text)
        XCTAssertEqual(built.diagnostics.map(\.message), [])
        XCTAssertEqual(built.model.fragments.count, count)
        XCTAssertEqual(built.model.fragment(named: "F0_user")?.lens.accessors.map(\.name), ["login", "f1"])
        XCTAssertEqual(built.model.operations.first?.fragmentsUsed.count, count)
        XCTAssertEqual(built.model.fragment(named: "F0_user")?.fragmentsSpread, ["F1_user"])
    }

    /// Selections nested deeper than the model builds are reported, not a crash. (250 levels:
    /// the document text's printing grows with the square of the depth.)
    func testDeepNestingIsReported() throws {
        let depth = 250
        let text =
            "query Deep { viewer " + String(repeating: "{ bestFriend ", count: depth) + "{ login }"
            + String(repeating: " }", count: depth) + " }\n"
        let built = try PlateFixtures.build(name: "deep.graphql", text: "#- deep.graphql\n" + text)
        XCTAssertEqual(built.diagnostics.map(\.rule), [LensDiagnosticRule.nestingTooDeep])
        let plates = built.model.operations.map { Plate(subject: .operation($0)) }
        XCTAssertLessThanOrEqual(plates.first?.rows.count ?? 0, LensModelBuilder.maximumDepth + 2)
        XCTAssertFalse(LensModelJSON.model(built.model).rendered().isEmpty)
    }
}
