import BatonTestSupport
import Foundation
import XCTest

/// The SwiftUI stand-in (`Tests/SwiftUIStandIn`) as modules to typecheck against: `Combine`, `SwiftUI` (which
/// re-exports Combine, Foundation and the toolchain's real Observation, as Apple's does), and `Baton` built with
/// them on its import path, so `#if canImport(SwiftUI)` compiles `Sources/Baton/SwiftUI` as on Apple platforms.
///
/// Everything is built with `swiftc` into temporary folders (never part of a product), in Swift 6 mode with complete
/// strict concurrency and warnings as errors.
enum SwiftUIStandIn {
    static let folder = SwiftCompiler.repository.appendingPathComponent("Tests/SwiftUIStandIn")

    static func sources(_ module: String) throws -> [String] {
        let directory = folder.appendingPathComponent(module)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { directory.appendingPathComponent($0).path }
    }

    /// The import path: the folders of Combine, SwiftUI and Baton-with-SwiftUI (found once per process: their keys
    /// hash every source, slow in a debug build, and every type-check asked again).
    static func importPath() throws -> [URL] {
        try importFolders.get { try buildImportPath() }
    }

    private static let importFolders = Once<[URL]>()

    private static func buildImportPath() throws -> [URL] {
        let flags = SwiftCompiler.flags
        let combine = try SwiftCompiler.module("Combine", sources: try sources("Combine"), includes: [], flags: flags)
        let swiftUI = try SwiftCompiler.module(
            "SwiftUI", sources: try sources("SwiftUI"), includes: [combine], flags: flags)
        let baton = try SwiftCompiler.module(
            "Baton", sources: SwiftCompiler.runtimeSources, includes: [combine, swiftUI], flags: flags)
        return [combine, swiftUI, baton]
    }

    /// Type-checks `files` (paths) as one app module importing the stand-in and Baton; returns the compiler's seconds.
    @discardableResult
    static func typecheck(_ files: [String], extraFlags: [String] = []) throws -> Double {
        let start = Date()
        try SwiftCompiler.typecheckOnce(
            "baton-swiftui-typecheck", arguments: try arguments(extraFlags: extraFlags), files: files)
        return Date().timeIntervalSince(start)
    }

    /// Type-checks one source text with `files`; returns the compiler's diagnostics when it fails, nil when it compiles.
    static func failure(of source: String, with files: [String] = []) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-swiftui-case-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try typecheck([file.path] + files)
            return nil
        } catch let failure as SwiftCompiler.Failure {
            return failure.description
        }
    }

    private static func arguments(extraFlags: [String] = []) throws -> [String] {
        ["-typecheck"] + SwiftCompiler.flags + extraFlags + (try importPath()).flatMap { ["-I", $0.path] } + [
            "-module-name", "App",
        ]
    }
}
