/// The JVM getter names of one class's properties, decided once in the tree for every JVM host (Kotlin today): a
/// platform's fact, not a language's spelling, so the tree states it on every property a JVM class declares
/// (`MemberDeclaration.jvmGetter`, `InputFieldDeclaration.jvmGetter`, `VariableDeclaration.jvmGetter`,
/// `OptimisticPropertyDeclaration.jvmGetter`, `TestBuilderDeclaration.jvmGetters`), and a printer only pins it
/// (Kotlin's `@get:JvmName`) where its own spelling of the property would give another getter.
///
/// A property's natural getter is `get` and its name with the first letter upper-cased, or the name itself when
/// it is `is` followed by an upper-case letter (`isOpen`). Two properties whose natural getters are equal (`url`
/// and `Url`), a property whose getter would override `Object.getClass` (`class`), one whose getter is a fixed
/// member's (an operation's `getDocument`), and one whose getter another's resolution already took (`url`, `Url`,
/// then `url_`: `getUrl`, `getUrl_`, `getUrl__`) are told apart in one pass, in declaration order: each property
/// takes its natural getter when it is free, else that getter with `_` appended until it is free. A name made only
/// of underscores (which the JVM's languages reserve) is taken with `0` appended, as top-level names are
/// (`DefinitionNaming`).
///
/// Since every property's getter is the one stated here, a printer that renames a property (Kotlin's `Companion`,
/// an input field named like a generated member) pins the stated getter and can never make two equal.
package enum JVMAccessorNames {
    /// The members every generated operation class declares for the runtimes (`Operation`'s properties), whose
    /// getters a variable's property must not take.
    package static let operationMembers = [
        "operationName", "operationType", "document", "operationId", "onError", "rootTypename", "selections",
        "throwOnFieldError", "incrementalDelivery",
    ]

    /// The getter the JVM names a property `name` by, when nothing tells it otherwise.
    package static func natural(_ name: String) -> String {
        // A name of ASCII letters, digits and underscores (every GraphQL name) on its bytes, without splitting it
        // into characters: the same getter, at a fraction of the cost (every member of every lens has one).
        let ascii: String?? = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard let first = bytes.first, bytes.allSatisfy(isNameByte) else { return nil }
            if bytes.count > 2, bytes[0] == UInt8(ascii: "i"), bytes[1] == UInt8(ascii: "s"), isUpper(bytes[2]) {
                return name
            }
            return String(unsafeUninitializedCapacity: bytes.count + 3) { buffer in
                buffer[0] = UInt8(ascii: "g")
                buffer[1] = UInt8(ascii: "e")
                buffer[2] = UInt8(ascii: "t")
                buffer[3] = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") ? first - 32 : first
                for index in 1..<bytes.count { buffer[index + 3] = bytes[index] }
                return bytes.count + 3
            }
        }
        if let ascii, let getter = ascii { return getter }
        let characters = Array(name)
        if characters.count > 2, characters[0] == "i", characters[1] == "s", characters[2].isUppercase { return name }
        guard let first = characters.first else { return "get" }
        return "get" + first.uppercased() + String(characters.dropFirst())
    }

    /// Each of `properties`' getters, in order: distinct from each other, from `getClass` and from the getters of
    /// `fixed` (properties the class declares besides, taken first).
    package static func resolve(_ properties: [String], fixed: [String] = []) -> [String] {
        var taken = Taken()
        taken.insert("getClass")
        for name in fixed { taken.insert(natural(hostName(name))) }
        return properties.map { name in
            var getter = natural(hostName(name))
            while taken.contains(getter) { getter += "_" }
            taken.insert(getter)
            return getter
        }
    }

    /// The getters taken so far: a list while there are few (a lens's handful of members: comparing costs less than
    /// hashing each name and making a set), a set past that.
    private struct Taken {
        private var few: [String] = []
        private var many: Set<String> = []
        private static let fewLimit = 24

        func contains(_ getter: String) -> Bool { many.isEmpty ? few.contains(getter) : many.contains(getter) }

        mutating func insert(_ getter: String) {
            guard many.isEmpty else {
                many.insert(getter)
                return
            }
            if few.count < Self.fewLimit { return few.append(getter) }
            many = Set(few)
            few = []
            many.insert(getter)
        }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    /// A byte of a GraphQL name: an ASCII letter, digit or underscore.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isUpper(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// `name` as a JVM host can declare it: a name made only of underscores with `0` appended.
    private static func hostName(_ name: String) -> String {
        !name.isEmpty && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") } ? name + "0" : name
    }
}
