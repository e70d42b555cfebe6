import Baton
import Foundation
import XCTest

/// The guide's custom-scalar sentence for every JSON shape: "A custom scalar is stored as its text, exactly as the
/// server wrote it, and reads as a string", and a mapped scalar's converter receives the same text.
///
/// `query { settings { a b c d e f g list } }` over a schema where `a` … `g` are of an unmapped custom scalar `JSON`,
/// `list` is `[JSON]`, and `mapped` is of a scalar `Raw` mapped to `RawText` (a converter that keeps its text). The
/// Kotlin runtime reads the same response to the same texts (`KotlinRuntimeTests.testCustomScalarShapes`).
final class CustomScalarShapeTests: XCTestCase {
    static let names = ["a", "b", "c", "d", "e", "f", "g"]
    static let selections: [Selection] = [
        .field(
            "settings", type: .named("Settings"),
            selections: names.map { .field($0, type: .named("JSON")) } + [
                .field("list", type: .list(.named("JSON"))), .field("mapped", type: .list(.named("Raw"))),
                .field("label", type: .named("String")),
            ])
    ]

    /// Every shape, written compactly (the text a scalar reads as has no whitespace between tokens).
    static let values = [
        #""text""#, "12", "-1.50e3", "true", "false", #"{"b":1,"a":[true,null,"x\"y"],"c":{}}"#, #"[1,"two",[3]]"#,
    ]
    static let expected = [
        "text", "12", "-1.50e3", "true", "false", #"{"b":1,"a":[true,null,"x\"y"],"c":{}}"#, #"[1,"two",[3]]"#,
    ]

    static var response: String {
        let members = zip(names, values).map { #""\#($0)": \#($1)"# }.joined(separator: ", ")
        let list = "[" + values.joined(separator: ", ") + ", null]"
        return #"{"data": {"settings": {\#(members), "list": \#(list), "mapped": \#(list), "label": 7}}}"#
    }

    /// A mapped scalar that keeps the text its converter received.
    struct RawText: CustomScalar, Equatable {
        var text: String
        init?(scalarText: String) { text = scalarText }
        static var placeholder: RawText { RawText(text: "") }
        private init(text: String) { self.text = text }
    }

    func settings(committing bytes: Bool, reporter: CollectingReporter) throws -> Lens {
        let store = Store()
        if bytes {
            try store.commit(bytes: Data(Self.response.utf8), selections: Self.selections)
        } else {
            try store.commit(.json(Self.response), selections: Self.selections)
        }
        let root = Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext(reporter: reporter))
        let settings = root.read(Self.selections.field("settings")) as Settings?
        return try XCTUnwrap(settings?.lens)
    }

    func testEveryShapeReadsAsTheTextTheServerWrote() throws {
        for bytes in [false, true] {
            let reporter = CollectingReporter()
            let settings = try settings(committing: bytes, reporter: reporter)
            let fields = Self.selections.field("settings").selections
            for (name, text) in zip(Self.names, Self.expected) {
                XCTAssertEqual(settings.read(fields.field(name)) as String?, text, "\(name), bytes: \(bytes)")
            }
            XCTAssertEqual(settings.read(fields.field("list")) as [String?]?, Self.expected + [nil], "bytes: \(bytes)")
            XCTAssertEqual(
                (settings.read(fields.field("mapped")) as [RawText?]?)?.map { $0?.text }, Self.expected + [nil],
                "the converter receives the same text; bytes: \(bytes)")
            XCTAssertEqual(reporter.take(), [], "no shape is unexpected for a custom scalar; bytes: \(bytes)")
        }
    }

    /// The built-in `String` keeps its contract: a number where a String was promised is reported, not read as text.
    func testABuiltInStringStillRejectsANumber() throws {
        let reporter = CollectingReporter()
        let settings = try settings(committing: true, reporter: reporter)
        XCTAssertNil(settings.read(Self.selections.field("settings").selections.field("label")) as String?)
        XCTAssertEqual(
            reporter.take(),
            [
                .unexpectedValue(
                    type: "Settings", field: "label", reason: "expected a String, found number 7",
                    path: "settings.label")
            ])
    }
}

extension [Selection] {
    /// The field selection named `name`.
    fileprivate func field(_ name: String) -> Field {
        for case .field(let field) in self where field.name == name { return field }
        return Field(name, type: .named("?"))
    }
}

/// The lens of `settings`.
private struct Settings: LensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static var selections: [Selection] { CustomScalarShapeTests.selections.field("settings").selections }
}
