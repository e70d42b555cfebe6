import BatonCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// `baton fetch-schema` runs this executable, installed beside `baton`, with its arguments.
let context = CommandContext.process()
let code = BatonCLI.run(FetchSchemaWork.self, Array(CommandLine.arguments.dropFirst()), context: context)
context.standardOutput.flush()
context.standardError.flush()
exit(code.rawValue)
