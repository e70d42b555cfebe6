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
/// `{"l":key}` or a list. The length and checksum catch truncation and corruption; the whole image is decoded
/// before the store sees any of it, so a bad image never half-loads.
enum StoreImage {
    static let version = 1
    static let magic = "BATON-IMAGE"

    static func encode(_ records: [RecordKey: Record]) -> Data {
        var body = JSONObject()
        var recordsObject = JSONObject()
        for key in records.keys.sorted() {
            guard let record = records[key] else { continue }
            var slots = JSONObject()
            for storageKey in record.slots.keys.sorted() {
                guard let slot = record.slots[storageKey] else { continue }
                var encoded = JSONObject([("v", encode(slot.value))])
                if !slot.errors.isEmpty { encoded["e"] = .array(slot.errors.map(\.json)) }
                slots[storageKey] = .object(encoded)
            }
            var object = JSONObject()
            if let typename = record.typename { object["t"] = .string(typename) }
            object["u"] = .number(String(record.updatedAt))
            object["i"] = .bool(record.invalidated)
            object["s"] = .object(slots)
            recordsObject[key] = .object(object)
        }
        body["records"] = .object(recordsObject)
        let bodyData = Data(JSONValue.object(body).compactText.utf8)
        let header = "\(magic) \(version) \(bodyData.count) \(String(fnv1a(bodyData), radix: 16))\n"
        return Data(header.utf8) + bodyData
    }

    static func encode(_ value: StoredValue) -> JSONValue {
        switch value {
        case .null: .null
        case .boolean(let flag): .bool(flag)
        case .string(let text): ["s": .string(text)]
        case .number(let text): ["n": .number(text)]
        case .json(let json): ["j": json]
        case .link(let key): ["l": .string(key)]
        case .list(let items): .array(items.map(encode))
        }
    }

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
        let json: JSONValue
        do {
            json = try JSONParser.parse(Data(body))
        } catch {
            throw .corrupt(error.description)
        }
        guard case .object(let recordsObject)? = json["records"] else { throw .corrupt("no records") }
        var records: [RecordKey: Record] = [:]
        records.reserveCapacity(recordsObject.count)
        for (key, value) in recordsObject.members {
            guard case .object(let object) = value, case .object(let slotsObject)? = object["s"],
                case .number(let updated)? = object["u"], let updatedAt = Double(updated),
                case .bool(let invalidated)? = object["i"]
            else { throw .corrupt("bad record \(key)") }
            var slots: [String: Slot] = [:]
            slots.reserveCapacity(slotsObject.count)
            for (storageKey, encoded) in slotsObject.members {
                guard let value = encoded["v"] else { throw .corrupt("bad slot \(key).\(storageKey)") }
                var errors: [GraphQLError] = []
                if case .array(let items)? = encoded["e"] { errors = items.map(GraphQLError.init(json:)) }
                slots[storageKey] = Slot(value: try decodeValue(value), errors: errors)
            }
            records[key] = Record(
                typename: object["t"]?.stringValue, slots: slots, updatedAt: updatedAt, invalidated: invalidated)
        }
        return records
    }

    static func decodeValue(_ json: JSONValue) throws(ImageError) -> StoredValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .array(let items):
            var values: [StoredValue] = []
            for item in items { values.append(try decodeValue(item)) }
            return .list(values)
        case .object(let object) where object.count == 1:
            switch (object.keys[0], object.values[0]) {
            case ("s", .string(let text)): return .string(text)
            case ("n", .number(let text)): return .number(text)
            case ("j", let value): return .json(value)
            case ("l", .string(let key)): return .link(key)
            default: throw .corrupt("bad value")
            }
        default: throw .corrupt("bad value")
        }
    }

    static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
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
    /// Returns the number of records written.
    @discardableResult
    public func saveImage(to url: URL) throws -> Int {
        let records = snapshot().records
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
