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
        let characters = Array(name)
        if characters.count > 2, characters[0] == "i", characters[1] == "s", characters[2].isUppercase { return name }
        guard let first = characters.first else { return "get" }
        return "get" + first.uppercased() + String(characters.dropFirst())
    }

    /// Each of `properties`' getters, in order: distinct from each other, from `getClass` and from the getters of
    /// `fixed` (properties the class declares besides, taken first).
    package static func resolve(_ properties: [String], fixed: [String] = []) -> [String] {
        var taken: Set<String> = ["getClass"]
        for name in fixed { taken.insert(natural(hostName(name))) }
        return properties.map { name in
            var getter = natural(hostName(name))
            while taken.contains(getter) { getter += "_" }
            taken.insert(getter)
            return getter
        }
    }

    /// `name` as a JVM host can declare it: a name made only of underscores with `0` appended.
    private static func hostName(_ name: String) -> String {
        !name.isEmpty && name.allSatisfy { $0 == "_" } ? name + "0" : name
    }
}
