import BatonCodegen
import BatonCodegenSwift
import BatonCompiler
import BatonConfig
import BatonIR
import BatonTestSupport
import Foundation
import XCTest

/// One source of truth: for every operation and fragment of the Examples and the corpus, the generated Swift
/// types say exactly what the lens model (and so the plate) says — optional at the levels the model makes
/// optional, a `Result` under `@catch`, throwing where the model throws — accessor by accessor.
final class SwiftOptionalityTests: XCTestCase {
    /// A lens struct of generated Swift: its accessor declarations and nested lens structs, in order.
    final class StructNode {
        var name: String
        var accessors: [(name: String, type: String, throwing: Bool)] = []
        var children: [StructNode] = []
        /// A shared lens (`typealias Name = Root.Path.To.First`, `LensSharing`): the path it names; resolved to that
        /// struct's accessors and children once the file is parsed.
        var alias: [String]?
        init(name: String) { self.name = name }
    }

    /// Gives each typealias node the accessors and nested structs of the struct it names (in the same file).
    static func resolveAliases(_ roots: [StructNode]) {
        func resolve(_ path: [String]) -> StructNode? {
            // The path starts at the module-level type: an operation's struct (not a lens) holds `Data`.
            guard let start = path.firstIndex(where: { name in roots.contains { $0.name == name } }),
                var node = roots.first(where: { $0.name == path[start] })
            else { return nil }
            for name in path[(start + 1)...] {
                guard let child = node.children.first(where: { $0.name == name && $0.alias == nil }) else { return nil }
                node = child
            }
            return node
        }
        func visit(_ node: StructNode) {
            for child in node.children {
                if let path = child.alias, let target = resolve(path) {
                    child.accessors = target.accessors
                    child.children = target.children
                } else {
                    visit(child)
                }
            }
        }
        roots.forEach(visit)
    }

    /// Parses generated Swift into its lens structs by indentation (the generator's layout).
    static func parse(_ text: String) -> [StructNode] {
        var roots: [StructNode] = []
        var stack: [(node: StructNode, indent: Int)] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let indent = line.prefix { $0 == " " }.count
            var body = line.dropFirst(indent)
            if body.isEmpty { continue }
            // A module-level declaration is `nonisolated` (`SwiftGenerator.isolation`).
            if body.hasPrefix("nonisolated ") { body = body.dropFirst("nonisolated ".count) }
            if body.hasPrefix("}"), let top = stack.last, top.indent == indent {
                stack.removeLast()
                continue
            }
            while let top = stack.last, top.indent >= indent { stack.removeLast() }
            // `LensType`, or the refinement a fragment's or a narrowing inline fragment's lens conforms to.
            if body.hasPrefix("struct "),
                [": Baton.LensType", ": Baton.ConditionalLensType", ": Baton.FragmentLensType"].contains(where: {
                    body.contains($0)
                })
            {
                let name = String(body.dropFirst("struct ".count).prefix { $0 != ":" })
                let node = StructNode(name: name)
                if let parent = stack.last { parent.node.children.append(node) } else { roots.append(node) }
                stack.append((node, indent))
                continue
            }
            if body.hasPrefix("typealias "), let top = stack.last, indent == top.indent + 4,
                let equals = body.range(of: " = "), body[equals.upperBound...].contains(".")
            {
                let node = StructNode(name: String(body.dropFirst("typealias ".count)[..<equals.lowerBound]))
                node.alias = body[equals.upperBound...].split(separator: ".").map(String.init)
                top.node.children.append(node)
                continue
            }
            guard let top = stack.last, indent == top.indent + 4, body.hasPrefix("var ") else { continue }
            // `var name: Type { … }`, or a throwing getter spread over lines.
            let declaration = body.dropFirst("var ".count)
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let name = String(declaration[..<colon])
            var type = declaration[declaration.index(after: colon)...].drop { $0 == " " }
            if let brace = type.range(of: " {") { type = type[..<brace.lowerBound] }
            let throwing =
                body.contains("get throws") || (index + 1 < lines.count && lines[index + 1].contains("get throws"))
            top.node.accessors.append((name, String(type), throwing))
        }
        resolveAliases(roots)
        return roots
    }

    /// Optionality per level of a Swift type string: `[[X?]]?` → [true, false, true].
    static func levels(_ type: String) -> [Bool] {
        var rest = Substring(SwiftTypeSpelling.bracketed(type))
        var result: [Bool] = []
        while true {
            let optional = rest.hasSuffix("?")
            if optional { rest = rest.dropLast() }
            result.append(optional)
            guard rest.hasPrefix("["), rest.hasSuffix("]") else { return result }
            rest = rest.dropFirst().dropLast()
        }
    }

    /// Compares one lens of the model with one generated struct; returns the mismatches.
    static func compare(_ lens: Lens, _ node: StructNode, path: String) -> [String] {
        var problems: [String] = []
        // A connection's lens also reads its ConnectionID (the plan names the member).
        var generatedAccessors = node.accessors
        if let name = lens.connectionIDName {
            let before = generatedAccessors.count
            generatedAccessors.removeAll { $0.name == name && $0.type == "Baton.ConnectionID" }
            if before == generatedAccessors.count { problems.append("\(path): no \(name) member") }
        }
        guard lens.accessors.count == generatedAccessors.count else {
            return ["\(path): \(lens.accessors.count) accessors in the model, \(generatedAccessors.count) generated"]
        }
        var children = node.children.makeIterator()
        for (accessor, generated) in zip(lens.accessors, generatedAccessors) {
            let where_ = "\(path).\(accessor.name) (\(generated.type))"
            var type = generated.type
            if accessor.catchMode == .result {
                guard type.hasPrefix("Swift.Result<"), type.hasSuffix(", Baton.FieldErrors>") else {
                    problems.append("\(where_): expected a Result under @catch")
                    continue
                }
                type = String(type.dropFirst("Swift.Result<".count).dropLast(", Baton.FieldErrors>".count))
            }
            let expected = accessor.levels.map(\.isOptional)
            if case .parentRecord = accessor.reads {
                if levels(type) != [accessor.isOptional] {
                    problems.append("\(where_): optionality \(accessor.isOptional) expected")
                }
            } else if levels(type) != expected {
                problems.append("\(where_): levels \(expected) expected, generated \(levels(type))")
            }
            let throwing = accessor.catchMode == nil && (accessor.isThrowing || accessor.underThrowOnFieldError)
            if case .field(let read) = accessor.reads, read.isTypename, !throwing {
            } else if throwing != generated.throwing {
                problems.append("\(where_): throwing \(throwing) expected")
            }
            if let nested = accessor.lens {
                guard let child = children.next() else {
                    problems.append("\(where_): no generated struct for its lens")
                    continue
                }
                problems += compare(nested, child, path: path + "." + accessor.name)
            }
        }
        return problems
    }

    /// Checks every operation and fragment of a model against the Swift generated for it.
    static func check(_ model: LensModel, label: String) -> [String] {
        let files = SwiftGenerator(model: model).generate()
        let structs = files.flatMap { parse($0.contents) }
        var byName: [String: StructNode] = [:]
        for node in structs { byName[node.name] = byName[node.name] ?? node }
        var problems: [String] = []
        var operationFiles = files.makeIterator()
        for operation in model.operations {
            // Operation files come first, in model order; the data lens is the file's root lens struct.
            guard let file = operationFiles.next(), let data = parse(file.contents).first else {
                problems.append("\(label) \(operation.name): no generated Data")
                continue
            }
            problems += compare(operation.lens, data, path: "\(label) \(operation.name)")
        }
        for fragment in model.fragments {
            let candidates = structs.filter {
                $0.name.trimmingCharacters(in: CharacterSet(charactersIn: "`")).hasPrefix(fragment.name)
            }
            guard
                let node = candidates.first(where: { compare(fragment.lens, $0, path: "").isEmpty }) ?? candidates.first
            else {
                problems.append("\(label) \(fragment.name): no generated lens")
                continue
            }
            problems += compare(fragment.lens, node, path: "\(label) \(fragment.name)")
        }
        return problems
    }

    func exampleModel(_ name: String) throws -> LensModel {
        let folder = SwiftCompiler.repository.appendingPathComponent("Examples/" + name).path
        let result = Driver(request: ProjectRequest(workingDirectory: folder)).compile(upTo: .plan)
        XCTAssertFalse(result.hasErrors, "\(result.diagnostics.map(\.message))")
        return try XCTUnwrap(result.models.first)
    }

    func testExamplesGeneratedTypesMatchTheModel() throws {
        for example in ["GitHub", "RickAndMorty"] {
            let model = try exampleModel(example)
            XCTAssertFalse(model.operations.isEmpty)
            XCTAssertEqual(Self.check(model, label: example), [])
        }
    }

    func testCorpusGeneratedTypesMatchTheModel() throws {
        guard CorpusProjects.isAvailable else {
            throw Unavailable.error("the shared corpus is not beside the repository")
        }
        var definitions = 0
        for unit in try CorpusProjects.units() {
            guard let built = CorpusProjects.build(unit) else { continue }
            definitions += built.model.operations.count + built.model.fragments.count
            XCTAssertEqual(Self.check(built.model, label: unit.name), [], unit.name)
        }
        XCTAssertGreaterThan(definitions, 300)
    }
}
