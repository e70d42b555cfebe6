import BatonCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let code = BatonCLI.run(Array(CommandLine.arguments.dropFirst()), context: .process())
exit(code.rawValue)
