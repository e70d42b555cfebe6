import BatonCodegen
import BatonCodegenSwift
import BatonIR
import Foundation
import XCTest

/// A schema written to break generated Swift: keywords and reserved names as type, field, argument, variable,
/// enum-value and fragment names (including the query value's `phase`, `retry` and `attachment`, and a type named
/// `Identifiable` beside an identifiable lens, and a type named `Hasher` whose values name the enums' `==` and
/// `hash(into:)` parameters), names that differ only in case, and descriptions that try to end their
/// comment. The generated code must compile (Swift 6, strict concurrency, warnings as errors).
final class SwiftHostileSchemaTests: XCTestCase {
    static let schema = #"""
        """
        A description that ends a comment */ and opens one /* with a \ backslash,
        and a line break.\nNot a line break.
        """
        type Query {
          class: String
          self: String
          Type: String
          Protocol: String
          init: String
          default: String
          _: String
          lens: String
          Fields: String
          Data: String
          name: String
          Name: String
          selections: String
          typeCondition: String
          "*/ struct Injected {} /*"
          protocol(in: Int, self: Int, default: String, variables: Int): Protocol
          enumField: default
          typeEnum: Type
          result: Result
          field: Field
          color: Color
          lowerColor: color
          node: Self
          search(input: class!, oneOf: Default): [Self!]
          baton: Baton
          items: [Item]
          flags(phase: Int, retry: Int, attachment: Int): String
          identifiable: Identifiable
          hasher: Hasher
        }

        type Item { id: ID! }

        """
        Ends */ here
        """
        type Protocol {
          Type: String
          type: String
          self: Protocol
          class: Int
          Self: String
        }

        type Self { init: String Init: String deinit: String }

        enum default { unknown unknown_ rawText case self Type none some _ hashValue init }

        enum Type {
          A
          a
          "Deprecated, with */ in its description"
          B @deprecated(reason: "use */ a \\ instead\nnow")
        }

        enum Result { success failure }
        enum Field { c }
        enum Color { RED }
        enum color { red }
        enum Baton { Swift }
        enum Identifiable { Swift }
        enum Hasher { Swift Bool lhs rhs left right hasher hash }

        input class {
          self: String
          Type: Int!
          default: String = "x"
          class: class
          in: [String]
          jsonValue: String
          "*/ evil"
          members: [[Int!]]
        }

        input Default @oneOf { a: String self: class default: Int }
        """#

    static let documents = """
        query class($in: Int, $self: Int, $default: String = "d", $input: class!, $oneOf: Default, $variables: Int,
                    $phase: Int, $retry: Int, $attachment: Int) {
          class self Type Protocol init default _ lens Fields Data name Name selections typeCondition
          protocol(in: $in, self: $self, default: $default, variables: $variables) {
            Type type self { class Self } class Self
          }
          enumField typeEnum result field color lowerColor baton
          items { id } flags(phase: $phase, retry: $retry, attachment: $attachment) identifiable hasher
          node { init Init deinit ...self }
          search(input: $input, oneOf: $oneOf) { init }
          as: name
          is: lens
        }

        query Type { node { ...Self_self } }
        query type { node { init } }

        fragment Self_self on Self { init }
        fragment self on Self { Init }
        """

    func testHostileSchemaGeneratesCodeThatCompiles() throws {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let model = try ModelHarness.model(schema: schema, documents: [("hostile.graphql", Self.documents)])
        let files = SwiftGenerator(model: model).generate()
        let paths = files.map(\.path)
        XCTAssertEqual(
            Set(paths.map { $0.lowercased() }).count, paths.count, "file names differ regardless of case: \(paths)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-hostile-\(UUID().uuidString)")
        defer {
            if ProcessInfo.processInfo.environment["BATON_KEEP_GENERATED"] == nil {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
        for file in files {
            // Every description line stays inside a `///` comment.
            for line in file.contents.split(separator: "\n") where line.contains("*/") || line.contains("Injected") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                XCTAssertTrue(
                    trimmed.hasPrefix("///") || trimmed.hasPrefix("@available(*, deprecated, message: \""),
                    "\(file.path): \(line)")
            }
        }
        try SwiftCompiler.typecheck(files.map { folder.appendingPathComponent($0.path).path })
    }
}
