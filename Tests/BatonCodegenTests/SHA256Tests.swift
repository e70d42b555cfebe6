import XCTest

@testable import BatonIR

final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hexDigest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hexDigest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hexDigest("héllo ✓"), "5657cdef8a85a584e0e961e6f8247cf5d3f8ed21496ed6fdbcfd43a761e94245")
    }

    /// Lengths around the padding boundaries (55/56 bytes leave or do not leave room for the length).
    func testBlockBoundaries() {
        let expected: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
        ]
        for (length, digest) in expected {
            XCTAssertEqual(SHA256.hexDigest(String(repeating: "a", count: length)), digest, "length \(length)")
        }
    }

    func testMillionAsInPieces() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        XCTAssertEqual(
            SHA256.hex(hasher.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

extension SHA256Tests {
    /// Fed at once or in uneven pieces (a partial block, several blocks, a non-contiguous
    /// sequence), the digest is the same.
    func testPiecesOfEverySizeAgreeWithOneShot() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        // Python's hashlib.sha256 of the same bytes.
        let expected = "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"
        XCTAssertEqual(SHA256.hex(SHA256.hash(bytes)), expected)
        for sizes in [[1, 7, 63, 64, 65, 200, 600], [3, 129, 868], [500, 1, 499]] {
            var hasher = SHA256()
            var offset = 0
            for (index, size) in sizes.enumerated() {
                let piece = bytes[offset..<min(bytes.count, offset + size)]
                // Every other piece as a lazy sequence, which has no contiguous storage.
                if index % 2 == 0 { hasher.update(piece) } else { hasher.update(piece.lazy.map { $0 }) }
                offset += piece.count
            }
            XCTAssertEqual(offset, bytes.count)
            XCTAssertEqual(SHA256.hex(hasher.finalize()), expected, "pieces \(sizes)")
        }
    }
}

extension SHA256Tests {
    /// A million `a`s at once (the inline block never used) and through the text's entry point.
    func testMillionAsAtOnce() {
        XCTAssertEqual(
            SHA256.hexDigest(String(repeating: "a", count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every entry point (text, array, raw bytes, generic sequence; at once and in three pieces, through the
    /// inline block) gives the same digest at every length from 0 to 200 bytes, and those digests are Python's:
    /// the SHA-256 of all 201 hexadecimal digests one after the other is hashlib's.
    func testEntryPointsAgreeAtEveryLength() {
        var outer = SHA256()
        for length in 0...200 {
            let bytes = (0..<length).map { UInt8(($0 &* 7 &+ 3) % 95 + 32) }
            let text = String(decoding: bytes, as: UTF8.self)
            let digest = SHA256.hexDigest(bytes)
            XCTAssertEqual(SHA256.hexDigest(text), digest, "length \(length)")
            XCTAssertEqual(SHA256.hex(SHA256.hash(bytes)), digest, "length \(length)")
            XCTAssertEqual(SHA256.hex(SHA256.hash(bytes.lazy.map { $0 })), digest, "length \(length)")
            let (first, second) = (length / 3, 2 * length / 3)
            var pieces = SHA256()
            pieces.update(utf8: String(decoding: bytes[0..<first], as: UTF8.self))
            bytes[first..<second].withUnsafeBytes { pieces.update($0) }
            pieces.update(Array(bytes[second...]))
            XCTAssertEqual(pieces.hexFinalize(), digest, "length \(length)")
            XCTAssertEqual(SHA256.hex(pieces.finalize()), digest, "length \(length)")
            outer.update(utf8: digest)
        }
        // Python: hashlib.sha256(b"".join(hashlib.sha256(bytes((i * 7 + 3) % 95 + 32 for i in range(n)))
        //     .hexdigest().encode() for n in range(201))).hexdigest()
        XCTAssertEqual(outer.hexFinalize(), "8b052cdfd7394f1d3348324aa736788bb4fd3e59ec446c17b876766f5e86ca78")
    }
}
