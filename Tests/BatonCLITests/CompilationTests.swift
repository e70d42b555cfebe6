import BatonCompiler
import BatonConfig
import BatonDiagnostics
import XCTest

/// The driver's `Compilation` on its own: stages up to a requested point, one gate, the policy,
/// and updates per changed file (what a watcher or an editor keeps).
final class CompilationTests: XCTestCase {
    static let root = "/project"
    static let schema = "type Query { me: User }\ntype User { id: ID! name: String }\n"

    func compilation(_ documents: [String: String], policy: DiagnosticPolicy = DiagnosticPolicy()) -> Compilation {
        var overlays: [String: [UInt8]] = [Self.root + "/schema.graphql": Array(Self.schema.utf8)]
        for (path, text) in documents { overlays[Self.root + "/" + path] = Array(text.utf8) }
        let project = ProjectInput(
            configuration: nil, schemaFiles: [Self.root + "/schema.graphql"],
            documentFiles: documents.keys.sorted().map { Self.root + "/" + $0 }, overlays: overlays)
        return Compilation(project: project, workingDirectory: Self.root, policy: policy)
    }

    func testStagesRunUpToTheRequestedPointAndStopAtTheGate() {
        let clean = compilation(["Me.graphql": "query Me { me { id } }"])
        clean.run(upTo: .validate)
        XCTAssertEqual(clean.completed, .validate)
        XCTAssertNil(clean.model, "the plan is not built before it is asked for")
        clean.run(upTo: .plan)
        XCTAssertEqual(clean.model?.operations.map(\.name), ["Me"])

        let broken = compilation(["Me.graphql": "query Me { me { nope } }"])
        broken.run(upTo: .plan)
        XCTAssertTrue(broken.stoppedAtGate)
        XCTAssertNil(broken.model, "the generators never see invalid input")
        XCTAssertEqual(broken.diagnostics.map(\.rule), ["fields-on-correct-type"])
    }

    func testWarningsAsErrorsCloseTheGate() {
        let schema = "type Query { me: User old: String @deprecated(reason: \"Use me.\") }\ntype User { id: ID! }\n"
        for warningsAsErrors in [false, true] {
            let project = ProjectInput(
                configuration: nil, schemaFiles: ["/p/schema.graphql"], documentFiles: ["/p/Q.graphql"],
                overlays: ["/p/schema.graphql": Array(schema.utf8), "/p/Q.graphql": Array("query Q { old }".utf8)])
            let compilation = Compilation(
                project: project, workingDirectory: "/p", policy: DiagnosticPolicy(warningsAsErrors: warningsAsErrors))
            compilation.run(upTo: .plan)
            XCTAssertEqual(compilation.diagnostics.map(\.severity), [.warning])
            XCTAssertEqual(compilation.stoppedAtGate, warningsAsErrors)
            XCTAssertEqual(compilation.shownDiagnostics.map(\.severity), [warningsAsErrors ? .error : .warning])
        }
    }

    func testAChangedFileIsReadAgainAlone() throws {
        let documents = ["A.graphql": "query A { me { ...Name } }", "Name.graphql": "fragment Name on User { name }"]
        let compilation = compilation(documents)
        compilation.run(upTo: .plan)
        XCTAssertFalse(compilation.stoppedAtGate)
        let before = try XCTUnwrap(compilation.units.first { $0.path.hasSuffix("A.graphql") }?.documents.first?.source)
        // An editor's buffer changes the fragment: only that file is read again, and the plan is rebuilt.
        let name = Self.root + "/Name.graphql"
        compilation.documentsChanged([name], texts: [name: Array("fragment Name on User { nope }".utf8)])
        XCTAssertNil(compilation.model)
        compilation.run(upTo: .plan)
        XCTAssertTrue(compilation.stoppedAtGate)
        XCTAssertEqual(compilation.diagnostics.map(\.rule), ["fields-on-correct-type"])
        let after = try XCTUnwrap(compilation.units.first { $0.path.hasSuffix("A.graphql") }?.documents.first?.source)
        XCTAssertTrue(before === after, "an unchanged file is not read again")
        // The fix: the plan comes back.
        compilation.documentsChanged([name], texts: [name: Array("fragment Name on User { id }".utf8)])
        compilation.run(upTo: .plan)
        XCTAssertEqual(compilation.model?.fragments.map(\.name), ["Name"])
        // A file that is gone (no text, nothing on disk) leaves the project, and its fragment with it.
        compilation.documentsChanged([name])
        compilation.run(upTo: .plan)
        XCTAssertEqual(compilation.diagnostics.map(\.rule), ["known-fragment-names"])
    }
}
