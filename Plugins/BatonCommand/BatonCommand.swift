import Foundation
import PackagePlugin

/// `swift package baton <command> [arguments…]`: runs `baton` (`check`, `gen`, `init`, `plate`, …) in the
/// package's folder, with the arguments as given, and fails when it fails.
///
/// `gen` and `init` write into the package (the output folders baton.json names, baton.json itself), which
/// SwiftPM lets a command plugin do only when allowed: `swift package --allow-writing-to-package-directory
/// baton gen`. `check` writes nothing.
@main
struct BatonCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try Self.run(
            baton: context.tool(named: "baton").url, in: context.package.directoryURL, arguments: arguments)
    }

    static func run(baton: URL, in folder: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = baton
        process.arguments = arguments.isEmpty ? ["check"] : arguments
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw CommandFailure(
                description: "baton \(process.arguments?.first ?? "") exited with status \(process.terminationStatus)")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension BatonCommand: XcodeCommandPlugin {
        /// From Xcode's project menu: the same, in the project's folder.
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            try Self.run(
                baton: context.tool(named: "baton").url, in: context.xcodeProject.directoryURL, arguments: arguments)
        }
    }
#endif

/// `baton` exited with a non-zero status (its own output says why).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
