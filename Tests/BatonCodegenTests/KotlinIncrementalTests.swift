import Baton
import Foundation
import XCTest

/// The Kotlin runtime's multipart reader and merger (IncrementalDelivery.kt) against the Swift runtime's, on the same
/// byte fixtures (Tests/BatonRuntimeTests/Fixtures/incremental), whole and in reads of 1 and 7 bytes: both print the
/// same lines, payload by payload, error for error.
final class KotlinIncrementalTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BatonRuntimeTests/Fixtures/incremental")

    /// Each fixture with its boundary, in the order both print them.
    static let cases = [
        ("current-defer.multipart", "-"), ("current-failed.multipart", "-"), ("current-stream.multipart", "-"),
        ("apollo-2022.multipart", "graphql"), ("unknown-id.multipart", "-"), ("subpath-outside.multipart", "-"),
        ("truncated.multipart", "-"), ("never-ends.multipart", "-"),
    ]

    /// The read sizes both use (`Int.max`: the whole body at once).
    static let chunks = [Int.max, 1, 7]

    func testBothRuntimesReadTheFixturesAlike() throws {
        let build = try KotlinBuild.shared()
        let kotlin = try build.run("check.incremental.IncrementalCheckKt", [Self.fixtures.path])
        XCTAssertEqual(kotlin, try Self.swiftLines())
    }

    /// What the Swift runtime reads: per fixture and read size, `== name (chunk)` then a line per payload and `end`
    /// or the error.
    static func swiftLines() throws -> String {
        var out = ""
        for (name, boundary) in cases {
            let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
            for chunk in chunks {
                out += "== \(name) (\(chunk == .max ? "whole" : String(chunk)))\n"
                var reader = MultipartReader(boundary: boundary)
                var merger = IncrementalMerger()
                do {
                    var offset = 0
                    while offset < bytes.count {
                        let end = offset + min(chunk, bytes.count - offset)
                        for part in try reader.feed(bytes[offset..<end]) {
                            out += try merger.apply(JSONParser.parse(Data(part))).summary + "\n"
                        }
                        offset = end
                    }
                    try reader.finish()
                    try merger.finish()
                    out += "end\n"
                } catch {
                    out += "error: \(error)\n"
                }
            }
        }
        return out
    }

    /// The Kotlin program printing the same.
    static let program = #"""
        package check.incremental

        import baton.runtime.IncrementalException
        import baton.runtime.IncrementalMerger
        import baton.runtime.Json
        import baton.runtime.MultipartReader
        import java.io.File

        val cases = listOf(
            "current-defer.multipart" to "-", "current-failed.multipart" to "-", "current-stream.multipart" to "-",
            "apollo-2022.multipart" to "graphql", "unknown-id.multipart" to "-", "subpath-outside.multipart" to "-",
            "truncated.multipart" to "-", "never-ends.multipart" to "-"
        )

        fun main(args: Array<String>) {
            val out = StringBuilder()
            for ((name, boundary) in cases) {
                val bytes = File(args[0], name).readBytes()
                for (chunk in listOf(Int.MAX_VALUE, 1, 7)) {
                    out.append("== ").append(name).append(" (").append(if (chunk == Int.MAX_VALUE) "whole" else chunk.toString()).append(")\n")
                    val reader = MultipartReader(boundary)
                    val merger = IncrementalMerger()
                    try {
                        var offset = 0
                        while (offset < bytes.size) {
                            val length = minOf(chunk, bytes.size - offset)
                            for (part in reader.feed(bytes, offset, length)) {
                                out.append(merger.apply(Json.parse(String(part, Charsets.UTF_8))).summary).append("\n")
                            }
                            offset += length
                        }
                        reader.finish()
                        merger.finish()
                        out.append("end\n")
                    } catch (error: IncrementalException) {
                        out.append("error: ").append(error.message).append("\n")
                    }
                }
            }
            print(out)
        }
        """#
}
