import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an image was not loaded.
public enum ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No image file (a first launch): not a failure worth logging.
    case absent
    /// The file is not a Baton image, or its body does not match its header (corrupt or truncated).
    case corrupt(String)
    /// An image written by a newer Baton.
    case futureVersion(Int)
    /// The file could not be read or written.
    case io(String)

    public var description: String {
        switch self {
        case .absent: "no image"
        case .corrupt(let reason): "corrupt image: \(reason)"
        case .futureVersion(let version):
            "image version \(version) is newer than this build reads (\(StoreImage.version))"
        case .io(let reason): "image I/O: \(reason)"
        }
    }
}

/// The store's image: every record with its slots, errors and age, in one file.
///
/// The file is a header line `BATON-IMAGE <version> <body bytes> <FNV-1a 64 of the body, hex>` and a JSON body
/// `{"records":{"Character:1":{"t":"Character","u":1700000000.5,"i":false,"s":{…}}}}` where a slot is
/// `{"v":value,"e":[errors]}` and a value is `null`, `true`/`false`, `{"s":text}`, `{"n":literal}`, `{"j":json}`,
/// `{"l":key}` or a list. Records are written sorted by key and slots sorted by storage key, so one store always
/// writes the same bytes. The length and checksum catch truncation and corruption; the whole image is decoded
/// before the store sees any of it, so a bad image never half-loads. Docs/Runtime.md, "The image format", is the
/// specification the Kotlin runtime reads and writes too.
///
/// Nesting: the image reads what a commit can store. A value sits at most `wrappingDepth` levels deeper in the
/// image than in the response it came from, so the image reads `JSONParser.maximumDepth + wrappingDepth` levels.
/// Encoding and decoding use explicit stacks, never recursion on the value's depth.
@_spi(Persistence) public enum StoreImage {
    static let version = 1
    static let magic = "BATON-IMAGE"

    /// The levels the image adds above a committed value. The shallowest place a response can hold a stored
    /// container is level 3 (a field of `data`: body, `data`, the value), and an error's `extensions` level 4
    /// (body, `errors`, the error, `extensions`). In the image a slot's value is at level 6 (body, `records`, the
    /// record, `s`, the slot, the value) and a custom scalar's JSON inside `{"j":…}` at level 7, an error's
    /// `extensions` at level 8 (…, the slot, `e`, the error, `extensions`); list levels and everything inside are
    /// the same in both. So 7 − 3 = 8 − 4 = 4.
    @_spi(Persistence) public static let wrappingDepth = 4
    /// The deepest nesting an image body may have.
    @_spi(Persistence) public static var maximumDepth: Int { JSONParser.maximumDepth + wrappingDepth }
    /// The deepest nesting of one record on its own (`encodeRecord`): the image's, less the body and `records`.
    @_spi(Persistence) public static var maximumRecordDepth: Int { maximumDepth - 2 }

    static func encode(_ records: [RecordKey: Record]) -> Data {
        var body: [UInt8] = []
        body.reserveCapacity(records.count * 256)
        append("{\"records\":{", to: &body)
        var first = true
        for key in records.keys.sorted() {
            guard let record = records[key] else { continue }
            if !first { body.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(key, to: &body)
            body.append(UInt8(ascii: ":"))
            writeRecord(record, to: &body)
        }
        append("}}", to: &body)
        let header = "\(magic) \(version) \(body.count) \(String(fnv1a(body), radix: 16))\n"
        return Data(header.utf8) + Data(body)
    }

    /// One record as the image writes it (`{"t":…,"u":…,"i":…,"s":{…}}`), on its own: what the SQLite cache keeps
    /// per record.
    @_spi(Persistence) public static func encodeRecord(_ record: Record) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + record.slots.count * 32)
        writeRecord(record, to: &bytes)
        return bytes
    }

    static func writeRecord(_ record: Record, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if let typename = record.typename {
            append("\"t\":", to: &output)
            JSONWriter.writeString(typename, to: &output)
            output.append(UInt8(ascii: ","))
        }
        append("\"u\":", to: &output)
        // A clock that is not finite cannot be written as a JSON number: its records are written as of 1970.
        output.append(contentsOf: String(record.updatedAt.isFinite ? record.updatedAt : 0).utf8)
        append(record.invalidated ? ",\"i\":true,\"s\":{" : ",\"i\":false,\"s\":{", to: &output)
        var first = true
        for storageKey in record.slots.keys.sorted() {
            guard let slot = record.slots[storageKey] else { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(storageKey, to: &output)
            append(":{\"v\":", to: &output)
            writeValue(slot.value, to: &output)
            if !slot.errors.isEmpty {
                append(",\"e\":", to: &output)
                JSONWriter.write(.array(slot.errors.map(\.json)), to: &output, sortKeys: false)
            }
            output.append(UInt8(ascii: "}"))
        }
        append("}}", to: &output)
    }

    /// A stored value, with an explicit stack for lists.
    static func writeValue(_ value: StoredValue, to output: inout [UInt8]) {
        var lists: [([StoredValue], Int)] = []
        var pending: StoredValue? = value
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: append("null", to: &output)
                case .boolean(let flag): append(flag ? "true" : "false", to: &output)
                case .string(let text):
                    append("{\"s\":", to: &output)
                    JSONWriter.writeString(text, to: &output)
                    output.append(UInt8(ascii: "}"))
                case .number(let text):
                    append("{\"n\":", to: &output)
                    output.append(contentsOf: text.utf8)
                    output.append(UInt8(ascii: "}"))
                case .json(let json):
                    append("{\"j\":", to: &output)
                    JSONWriter.write(json, to: &output, sortKeys: false)
                    output.append(UInt8(ascii: "}"))
                case .link(let key):
                    append("{\"l\":", to: &output)
                    JSONWriter.writeString(key, to: &output)
                    output.append(UInt8(ascii: "}"))
                case .list(let items):
                    output.append(UInt8(ascii: "["))
                    lists.append((items, 0))
                }
            }
            guard let (items, next) = lists.popLast() else { return }
            if next == items.count {
                output.append(UInt8(ascii: "]"))
                continue
            }
            if next > 0 { output.append(UInt8(ascii: ",")) }
            lists.append((items, next + 1))
            pending = items[next]
        }
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Decoding

    static func decode(_ data: Data) throws(ImageError) -> [RecordKey: Record] {
        guard let newline = data.firstIndex(of: 0x0A) else { throw .corrupt("no header") }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == magic, let version = Int(header[1]) else {
            throw .corrupt("not a Baton image")
        }
        if version > StoreImage.version { throw .futureVersion(version) }
        guard version == StoreImage.version, let length = Int(header[2]), let checksum = UInt64(header[3], radix: 16)
        else {
            throw .corrupt("bad header")
        }
        let body = data[data.index(after: newline)...]
        guard body.count == length else { throw .corrupt("expected \(length) bytes, found \(body.count) (truncated?)") }
        guard fnv1a(body) == checksum else { throw .corrupt("checksum mismatch") }
        let result: Result<[RecordKey: Record], ImageError> = body.withUnsafeBytes { raw in
            do throws(ImageError) {
                return .success(try decodeBody(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decodeBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageError) -> [RecordKey: Record] {
        let tape = try readTape(bytes, maximumDepth: maximumDepth)
        return try withExtendedLifetime(tape) { () throws(ImageError) -> [RecordKey: Record] in
            let view = tape.view(bytes)
            guard view[0].kind == .object, let recordsIndex = view.member(of: 0, named: "records"),
                view[recordsIndex].kind == .object
            else { throw .corrupt("no records") }
            var records: [RecordKey: Record] = [:]
            records.reserveCapacity(Int(view[recordsIndex].start))
            var failure: ImageError?
            forEachMember(of: recordsIndex, in: view) { key, value in
                let name = view.text(key)
                do throws(ImageError) {
                    records[name] = try decodeRecord(value, in: view, name: name)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            return records
        }
    }

    /// One record encoded by `encodeRecord`.
    @_spi(Persistence) public static func decodeRecord(_ bytes: UnsafeBufferPointer<UInt8>, key: RecordKey)
        throws(ImageError) -> Record
    {
        let tape = try readTape(bytes, maximumDepth: maximumRecordDepth)
        return try withExtendedLifetime(tape) { () throws(ImageError) -> Record in
            try decodeRecord(0, in: tape.view(bytes), name: key)
        }
    }

    private static func readTape(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(ImageError) -> JSONTape
    {
        switch JSONTape.read(bytes, maximumDepth: maximumDepth) {
        case .success(let tape): return tape
        case .failure(let failure):
            throw .corrupt(JSONParseError(message: failure.message, offset: failure.offset).description)
        }
    }

    /// Calls `body` with each live member's key and value entries, in order, until it returns false.
    private static func forEachMember(of object: Int32, in view: JSONTape.View, _ body: (Int32, Int32) -> Bool) {
        var key = object + 1
        for _ in 0..<Int(view[object].start) {
            let next = view[key + 1].next
            if view[key].kind == .key, !body(key, key + 1) { return }
            key = next
        }
    }

    private static func decodeRecord(_ index: Int32, in view: JSONTape.View, name: String) throws(ImageError) -> Record
    {
        guard view[index].kind == .object, let slotsIndex = view.member(of: index, named: "s"),
            view[slotsIndex].kind == .object, let updatedIndex = view.member(of: index, named: "u"),
            view[updatedIndex].kind == .number, let updatedAt = Double(view.numberText(updatedIndex)),
            updatedAt.isFinite,
            let invalidatedIndex = view.member(of: index, named: "i"),
            view[invalidatedIndex].kind == .true || view[invalidatedIndex].kind == .false
        else { throw .corrupt("bad record \(name)") }
        var slots: [String: Slot] = [:]
        slots.reserveCapacity(Int(view[slotsIndex].start))
        var failure: ImageError?
        forEachMember(of: slotsIndex, in: view) { key, encoded in
            let storageKey = view.text(key)
            guard view[encoded].kind == .object, let value = view.member(of: encoded, named: "v") else {
                failure = .corrupt("bad slot \(name).\(storageKey)")
                return false
            }
            var errors: [GraphQLError] = []
            if let errorsIndex = view.member(of: encoded, named: "e"), view[errorsIndex].kind == .array,
                case .array(let items) = view.jsonValue(errorsIndex)
            {
                errors = items.map(GraphQLError.init(json:))
            }
            do throws(ImageError) {
                slots[storageKey] = Slot(value: try decodeValue(value, in: view), errors: errors)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return Record(
            typename: view.stringValue(view.member(of: index, named: "t")), slots: slots, updatedAt: updatedAt,
            invalidated: view[invalidatedIndex].kind == .true)
    }

    /// A stored value from its encoding, with an explicit stack for lists.
    static func decodeValue(_ index: Int32, in view: JSONTape.View) throws(ImageError) -> StoredValue {
        // Open lists: the items decoded so far and how many are left.
        var lists: [(items: [StoredValue], remaining: Int)] = []
        var position = index
        while true {
            let entry = view[position]
            var value: StoredValue
            switch entry.kind {
            case .null: value = .null
            case .true: value = .boolean(true)
            case .false: value = .boolean(false)
            case .array:
                if entry.start > 0 {
                    lists.append(([], Int(entry.start)))
                    lists[lists.count - 1].items.reserveCapacity(Int(entry.start))
                    position += 1
                    continue
                }
                value = .list([])
            case .object:
                value = try decodeTagged(position, in: view)
            default:
                throw .corrupt("bad value")
            }
            position = entry.next
            // Hand the value to the open list, closing every list it completes.
            while true {
                guard var list = lists.popLast() else { return value }
                list.items.append(value)
                list.remaining -= 1
                if list.remaining > 0 {
                    lists.append(list)
                    break
                }
                value = .list(list.items)
            }
        }
    }

    /// `{"s":text}`, `{"n":literal}`, `{"j":json}` or `{"l":key}`.
    private static func decodeTagged(_ index: Int32, in view: JSONTape.View) throws(ImageError) -> StoredValue {
        var found: (tag: Int32, value: Int32)?
        var live = 0
        forEachMember(of: index, in: view) { key, value in
            live += 1
            found = (key, value)
            return true
        }
        guard live == 1, let (tag, value) = found else { throw .corrupt("bad value") }
        let kind = view[value].kind
        switch view.text(tag) {
        case "s" where kind == .string: return .string(view.text(value))
        case "n" where kind == .number: return .number(view.numberText(value))
        case "j": return .json(view.jsonValue(value))
        case "l" where kind == .string: return .link(view.text(value))
        default: throw .corrupt("bad value")
        }
    }

    @_spi(Persistence) public static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64
    where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

extension Store {
    /// Writes every record to an image file atomically: a temporary file beside it, then a rename.
    /// Returns the number of records written. Only server data is written (never an optimistic layer), only the
    /// records in `keeping` when it is given (the environment passes what its roots reach), and no deleted record.
    @discardableResult
    public func saveImage(to url: URL, keeping: Set<RecordKey>? = nil) throws -> Int {
        let records = serverRecords().filter { key, record in !record.isDeleted && keeping?.contains(key) != false }
        let data = StoreImage.encode(records)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            throw ImageError.io("cannot write \(temporary.path): \(error.localizedDescription)")
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw ImageError.io("cannot rename onto \(url.path) (errno \(errno))")
        }
        return records.count
    }

    /// Replaces the store's records with an image's. On any failure the store is left empty.
    public func loadImage(from url: URL) -> Result<Int, ImageError> {
        guard FileManager.default.fileExists(atPath: url.path) else {
            clear()
            return .failure(.absent)
        }
        do {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw ImageError.io(error.localizedDescription)
            }
            let records = try StoreImage.decode(data)
            replaceRecords(records)
            return .success(records.count)
        } catch let error as ImageError {
            clear()
            return .failure(error)
        } catch {
            clear()
            return .failure(.io(String(describing: error)))
        }
    }
}
