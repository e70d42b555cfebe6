/// SHA-256 (FIPS 180-4), small and dependency-free: CryptoKit is not available on Linux.
///
/// Used for operation ids (persisted queries) and for the stable suffix of shortened file names.
package struct SHA256: Sendable {
    private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private var state: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes fed since the last whole block: the first `buffered` (fewer than 64) of these 64, held inline (no
    /// allocation per hasher).
    private var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    package init() {}

    /// Feeds more bytes. Contiguous bytes (a string's UTF-8, an array) are compressed in place,
    /// a block at a time; only a partial block is copied.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done != nil { return }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(4096)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 4096 {
                chunk.withUnsafeBytes { update($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBytes { update($0) }
    }

    /// Feeds an array's bytes (not through the generic path: callers in other modules would reach it unspecialized).
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds the UTF-8 bytes of `text`.
    package mutating func update(utf8 text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Feeds `bytes`: whole blocks compressed where they lie, the rest copied into the inline block.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if buffered > 0 {
            let taken = min(64 - buffered, bytes.count)
            let start = buffered
            withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[start..<start + taken]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: bytes[0..<taken]))
            }
            buffered += taken
            offset = taken
            guard buffered == 64 else { return }
            withUnsafeBytes(of: buffer) { block in Self.compress(&state, block) }
            buffered = 0
        }
        while bytes.count - offset >= 64 {
            Self.compress(&state, UnsafeRawBufferPointer(start: base + offset, count: 64))
            offset += 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[0..<rest]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            buffered = rest
        }
    }

    /// The state after everything fed so far and the padding (`0x80`, zeros, the length in bits).
    private func finished() -> State {
        var state = self.state
        var block = buffer
        let bitLength = length &* 8
        let used = buffered
        withUnsafeMutableBytes(of: &block) { block in
            block[used] = 0x80
            for index in (used + 1)..<64 { block[index] = 0 }
            if used >= 56 {
                Self.compress(&state, UnsafeRawBufferPointer(block))
                for index in 0..<56 { block[index] = 0 }
            }
            block.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            Self.compress(&state, UnsafeRawBufferPointer(block))
        }
        return state
    }

    /// The 32-byte digest of everything fed so far.
    package func finalize() -> [UInt8] {
        let state = finished()
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            withUnsafeBytes(of: state) { words in
                for index in 0..<8 {
                    let word = words.load(fromByteOffset: index &* 4, as: UInt32.self)
                    digest[index &* 4] = UInt8(truncatingIfNeeded: word >> 24)
                    digest[index &* 4 &+ 1] = UInt8(truncatingIfNeeded: word >> 16)
                    digest[index &* 4 &+ 2] = UInt8(truncatingIfNeeded: word >> 8)
                    digest[index &* 4 &+ 3] = UInt8(truncatingIfNeeded: word)
                }
            }
            count = 32
        }
    }

    /// The lower-case hexadecimal digest of everything fed so far (`hex(finalize())`, without the bytes between).
    package func hexFinalize() -> String {
        let state = finished()
        return String(unsafeUninitializedCapacity: 64) { text in
            withUnsafeBytes(of: state) { words in
                for index in 0..<8 {
                    let word = words.load(fromByteOffset: index &* 4, as: UInt32.self)
                    for nibble in 0..<8 {
                        text[index &* 8 &+ nibble] = Self.hexDigit(
                            UInt8(truncatingIfNeeded: word >> (28 &- 4 &* UInt32(nibble))))
                    }
                }
            }
            return 64
        }
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The lower-case hexadecimal digest of the UTF-8 bytes of `text`.
    package static func hexDigest(_ text: String) -> String {
        var hasher = SHA256()
        hasher.update(utf8: text)
        return hasher.hexFinalize()
    }

    /// The lower-case hexadecimal digest of `bytes`.
    package static func hexDigest(_ bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.hexFinalize()
    }

    /// Lower-case hexadecimal text of `bytes`.
    package static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[index &* 2] = hexDigit(byte >> 4)
                text[index &* 2 &+ 1] = hexDigit(byte)
            }
            return bytes.count * 2
        }
    }

    /// The lower-case hexadecimal digit of the low four bits of `value`.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        let nibble = value & 0x0f
        return nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
    }

    /// One 64-byte block (the first 64 bytes of `block`) into `state`: the message schedule, then the 64 rounds
    /// eight at a time, each round's eight words named in place (no word moved between rounds).
    private static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { k in
                for i in 0..<16 {
                    w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                }
                for i in 16..<64 {
                    let x = w[i - 15]
                    let y = w[i - 2]
                    let s0 = rotr(rotr(x, 11) ^ x, 7) ^ (x >> 3)  // rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                    let s1 = rotr(rotr(y, 2) ^ y, 17) ^ (y >> 10)  // rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = state
                // `b ^ c` of the next round: `Maj` from it in two operations, and it is the round's `a ^ b`.
                var bc = b ^ c
                var i = 0
                while i < 64 {
                    round(a, b, c, &d, e, f, g, &h, &bc, k[i] &+ w[i])
                    round(h, a, b, &c, d, e, f, &g, &bc, k[i + 1] &+ w[i + 1])
                    round(g, h, a, &b, c, d, e, &f, &bc, k[i + 2] &+ w[i + 2])
                    round(f, g, h, &a, b, c, d, &e, &bc, k[i + 3] &+ w[i + 3])
                    round(e, f, g, &h, a, b, c, &d, &bc, k[i + 4] &+ w[i + 4])
                    round(d, e, f, &g, h, a, b, &c, &bc, k[i + 5] &+ w[i + 5])
                    round(c, d, e, &f, g, h, a, &b, &bc, k[i + 6] &+ w[i + 6])
                    round(b, c, d, &e, f, g, h, &a, &bc, k[i + 7] &+ w[i + 7])
                    i += 8
                }
                state = (
                    state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                    state.7 &+ h
                )
            }
        }
    }

    /// One round: `h` becomes the round's new `a` and `d` its new `e` (the caller renames the words for the next).
    /// `bc` is `b ^ c` on entry and the round's `a ^ b` (the next round's `b ^ c`) on return.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ bc: inout UInt32, _ kw: UInt32
    ) {
        let s1 = rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)  // rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let choice = g ^ (e & (f ^ g))
        let t1 = h &+ s1 &+ choice &+ kw
        let s0 = rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)  // rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let ab = a ^ b
        let majority = (ab & bc) ^ b  // (a & b) | (c & (a | b))
        bc = ab
        d = d &+ t1
        h = t1 &+ s0 &+ majority
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

}
