import BatonTestSupport
import Foundation
import XCTest

/// `Package.swift` declares exactly the Baton modules each source target imports (issue 28): a layer that
/// imports a module it does not declare leans on a transitive dependency that a change elsewhere can take away,
/// and a declared module nothing imports is an arrow in the layering that does not exist.
/// Every source target is checked, wherever its folder is: `Sources/`, the Kotlin runtime's finder
/// (`Kotlin/runtime`), the example, the test support.
final class PackageLayeringTests: XCTestCase {
    struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var dependencies: [Dependency]
    }

    /// `{"byName": ["BatonIR", null]}` or `{"target": ["BatonIR", null]}` in `dump-package`'s JSON.
    struct Dependency: Decodable {
        var name: String?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            name = nil
            for key in container.allKeys {
                var list = try container.nestedUnkeyedContainer(forKey: key)
                name = try list.decode(String.self)
            }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Manifest: Decodable { var targets: [Target] }

    func testEverySourceTargetDeclaresWhatItImports() throws {
        let repository = TestPaths.repository
        let swift = try Unavailable.executable("swift", install: "install a Swift 6 toolchain")
        // A scratch folder of its own: `swift test` holds the lock on the package's `.build` while tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("baton-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try Subprocess.run(
            swift, ["package", "--package-path", repository.path, "--scratch-path", scratch.path, "dump-package"],
            in: repository.path, discardingErrors: true)
        XCTAssertEqual(dump.status, 0)
        let data = Data(dump.output.utf8)
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        let modules = Set(manifest.targets.map(\.name))
        var checked = 0
        for target in manifest.targets where target.type == "regular" || target.type == "executable" {
            let folder = repository.appendingPathComponent(target.path ?? "Sources/\(target.name)")
            // Every target outside Sources/ too (the Kotlin runtime's finder, the example, the test support).
            let imported = try Self.imports(under: folder).intersection(modules)
            let declared = Set(target.dependencies.compactMap(\.name)).intersection(modules)
            XCTAssertEqual(
                imported.sorted(), declared.sorted(),
                "\(target.name): imports \(imported.subtracting(declared).sorted()) undeclared; declares "
                    + "\(declared.subtracting(imported).sorted()) it never imports")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 15)
    }

    /// The modules named by `import` lines of the Swift files under `folder`.
    static func imports(under folder: URL) throws -> Set<String> {
        var names: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return names }
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || ["package", "public", "internal"].contains($0) })
                else { continue }
                names.insert(String(words[index + 1]))
            }
        }
        return names
    }
}
