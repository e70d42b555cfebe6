// baton.json through the configuration loader and document discovery (in an empty scratch folder). Errors must
// be located inside their file.
import BatonConfig
import BatonDiagnostics
import BatonFiles
import Foundation

let scratch: String = {
    let path = NSTemporaryDirectory() + "baton-fuzz-config-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let loaded = ConfigurationLoader.load(text: text, path: "baton.json", workingDirectory: scratch)
    checkLocated(loaded.diagnostics, "configuration")
    for project in loaded.projects {
        // Discovery walks what a pattern names; a pattern reaching out of the scratch folder (`../..//**`) would walk
        // the host's whole disk, which terminates but is not this target's to time (Fuzz/Regressions/configuration).
        let roots = (project.schema + project.documents).map(\.value.root)
        guard roots.allSatisfy({ Path.isInside($0, directory: scratch) }) else { continue }
        let schema = DocumentDiscovery.schemaFiles(of: project)
        let documents = DocumentDiscovery.documentFiles(of: project)
        checkLocated(schema.diagnostics + documents.diagnostics, "discovery")
        _ = project.applyingRuleSettings(to: [])
    }
    return 0
}
