import XCTest

@testable import BatonCodegen

/// `TextBuilder` owns its buffer: appends past its capacity keep every byte, a copy is a value (appending to one
/// leaves the other as it was), and a template written into it is the template's text.
final class TextBuilderTests: XCTestCase {
    func testAppendsPastTheCapacityKeepEveryByte() {
        var builder = TextBuilder(capacity: 1)
        var expected = ""
        for index in 0..<300 {
            let piece = index % 3 == 0 ? "émoji 🎉 \(index)" : String(repeating: "x", count: index % 40)
            builder.add(piece)
            builder.add(UInt8(ascii: "\n"))
            expected += piece + "\n"
        }
        Array("tail".utf8).withUnsafeBufferPointer { builder.add($0) }
        expected += "tail"
        XCTAssertEqual(builder.text, expected)
        XCTAssertEqual(builder.bytes, Array(expected.utf8))
        XCTAssertEqual(TextBuilder(builder.bytes).text, expected)
    }

    func testACopyIsAValue() {
        var first = TextBuilder(capacity: 64)
        first.add("shared ")
        var second = first
        second.add("second")
        first.add("first")
        first.add(UInt8(ascii: "!"))
        var third = first
        third.add(UInt8(ascii: "?"))
        XCTAssertEqual(first.text, "shared first!")
        XCTAssertEqual(second.text, "shared second")
        XCTAssertEqual(third.text, "shared first!?")
    }

    func testDecimalIsStringsSpelling() {
        var builder = TextBuilder(capacity: 1)
        var expected = ""
        let values = [0, 7, 9, 10, 42, 99, 100, 12_345, -1, -10, -907, Int.max, Int.min] + Array(0..<120)
        for value in values {
            builder.add(decimal: value)
            builder.add(UInt8(ascii: ","))
            expected += String(value) + ","
        }
        XCTAssertEqual(builder.text, expected)
    }

    func testRemoveTrailingAndTemplates() {
        var builder = TextBuilder()
        XCTAssertTrue(builder.isEmpty)
        builder.add("a b   ")
        builder.removeTrailing(UInt8(ascii: " "))
        XCTAssertEqual(builder.text, "a b")
        builder.add(UInt8(ascii: "\n"))
        let inner = Template("one\ntwo")
        let outer: Template = "struct S {\n    \(inner)\n}\n"
        outer.write(to: &builder)
        Template("plain\n").write(to: &builder)
        XCTAssertEqual(builder.text, "a b\n" + outer.text + "plain\n")
        XCTAssertTrue(outer.text.contains("    two\n"))
        builder.removeTrailing(UInt8(ascii: "\n"))
        XCTAssertEqual(builder.text, "a b\n" + outer.text + "plain")
    }
}
