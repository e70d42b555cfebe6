import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Dispatch
import Foundation

extension ScaleBenchmark {
    /// `check`'s stages in process, one after another, then the parallel prototype: the schema
    /// built while the documents are read and parsed on `ParallelWork`, and validation cut into
    /// one contiguous unit per worker. The prototype's diagnostics must equal the sequential ones.
    ///
    /// Cutting validation into units is exact for this project (every document validates alone,
    /// names are unique); a driver that does it for any project keeps the cross-document rules
    /// (unique names, unused and unknown fragments, fragment cycles) in one pass over all units.
    func runStages() {
        let workers = ParallelWork.processorCount
        print("### check's stages in process (median of \(options.runs) runs; \(workers) processors)")
        let directory = project.directory
        var timings: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        var order: [String] = []
        func record(_ name: String, _ wall: Double, _ processor: Double, _ round: Int) {
            if round == 0 { return }
            if timings[name] == nil { order.append(name) }
            timings[name, default: []].append(wall)
            cpu[name, default: []].append(processor)
        }
        var mismatch: String?
        var memory: [(String, Double)] = []
        func resident(_ stage: String, _ round: Int) {
            if round == 0 { memory.append((stage, StageMeter.residentMiB())) }
        }
        resident("start", 0)
        for round in 0...options.runs {
            var meter = StageMeter()
            let loaded = ConfigurationLoader.load(
                path: "\(directory)/baton.json", workingDirectory: directory, knownRules: RuleCatalog.ruleIDs)
            guard let configuration = loaded.projects.first else {
                print("  baton.json did not load: \(loaded.diagnostics.map(\.message))")
                return
            }
            let files = DocumentDiscovery.documentFiles(of: configuration).files
            let schemaFiles = DocumentDiscovery.schemaFiles(of: configuration).files
            record("configuration + discovery", meter.lap(), meter.cpuLap(), round)
            resident("after discovery", round)
            let loader = ProjectLoader(workingDirectory: directory)
            let (schema, _, _) = loader.loadSchema(schemaFiles)
            record("schema (read, parse, build, validate)", meter.lap(), meter.cpuLap(), round)
            resident("after the schema", round)
            guard let schema else {
                print("  the schema did not build")
                return
            }
            let sources = files.compactMap { path -> SourceFile? in
                if case .success(let source) = loader.read(path) { return source }
                return nil
            }
            record("read documents", meter.lap(), meter.cpuLap(), round)
            resident("after reading the documents", round)
            let documents = sources.compactMap { Parser.parse($0).document }
            record("parse documents", meter.lap(), meter.cpuLap(), round)
            resident("after parsing them", round)
            let sequential = DocumentValidation.validate(
                schema: schema, documents: documents, configuration: configuration)
            record("validate (merged)", meter.lap(), meter.cpuLap(), round)
            resident("after validating", round)
            withExtendedLifetime((sources, documents)) {}

            // The prototype: schema ∥ (read + parse on the workers), then validation per unit.
            let processCPU = StageMeter.processCPU()
            let parallelStart = DispatchTime.now().uptimeNanoseconds
            let group = DispatchGroup()
            nonisolated(unsafe) var parallelSchema: GraphQLSchema?
            DispatchQueue.global().async(group: group) {
                parallelSchema = loader.loadSchema(schemaFiles).schema
            }
            let parsed = ParallelWork.map(files, workers: workers) { path -> Document? in
                guard case .success(let source) = loader.read(path) else { return nil }
                return Parser.parse(source).document
            }.compactMap { $0 }
            group.wait()
            let parsedAt = DispatchTime.now().uptimeNanoseconds
            guard let built = parallelSchema else { return }
            let units = (0..<workers).map { worker in
                Array(parsed[(parsed.count * worker / workers)..<(parsed.count * (worker + 1) / workers)])
            }
            let parallel = ParallelWork.map(units, workers: workers) { unit in
                DocumentValidation.validate(schema: built, documents: unit, configuration: configuration)
            }.flatMap { $0 }
            let parallelEnd = DispatchTime.now().uptimeNanoseconds
            let parallelCPU = StageMeter.processCPU() - processCPU
            record(
                "parallel: schema ∥ read+parse", Double(parsedAt - parallelStart) / 1e6, .nan, round)
            record(
                "parallel: validate \(workers) units", Double(parallelEnd - parsedAt) / 1e6, .nan, round)
            record("parallel: total", Double(parallelEnd - parallelStart) / 1e6, parallelCPU, round)
            let same =
                sequential.count == parallel.count
                && zip(sequential, parallel).allSatisfy {
                    // The prototype read its own SourceFiles: compare places by path and span.
                    $0.message == $1.message && $0.range?.file.path == $1.range?.file.path
                        && $0.range?.span == $1.range?.span && $0.notes.count == $1.notes.count
                }
            if !same { mismatch = "sequential \(sequential.count) diagnostics, parallel \(parallel.count)" }
            if round == 0 {
                print(
                    "  \(files.count) documents, \(sequential.count) diagnostics (\(sequential.filter { $0.severity == .error }.count) errors)"
                )
            }
        }
        var sequentialTotal = 0.0
        var sequentialCPU = 0.0
        for name in order {
            let wall = median(timings[name] ?? [])
            let processor = median(cpu[name] ?? [])
            if !name.hasPrefix("parallel") {
                sequentialTotal += wall
                sequentialCPU += processor
            }
            let cpuText = processor.isNaN ? "" : String(format: " (CPU %.1f ms)", processor)
            print(String(format: "  %@: %.1f ms", name, wall) + cpuText)
        }
        print(String(format: "  sequential total: %.1f ms (CPU %.1f ms)", sequentialTotal, sequentialCPU))
        let parallelTotal = median(timings["parallel: total"] ?? [])
        if parallelTotal > 0 {
            print(String(format: "  parallel prototype: %.2fx faster than sequential", sequentialTotal / parallelTotal))
        }
        print("  parallel diagnostics: \(mismatch ?? "identical to sequential")")
        print(
            "  resident memory (first round, MiB): "
                + memory.map { String(format: "%@ %.1f", $0.0, $0.1) }.joined(separator: ", "))
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[sorted.count / 2]
    }
}

/// Wall and thread-CPU laps.
struct StageMeter {
    var wall = DispatchTime.now().uptimeNanoseconds
    var cpu = StageMeter.threadCPU()

    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { wall = now }
        return Double(now - wall) / 1e6
    }

    mutating func cpuLap() -> Double {
        let now = StageMeter.threadCPU()
        defer { cpu = now }
        return now - cpu
    }

    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// This process's resident memory now (`VmRSS`), in MiB.
    static func residentMiB() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kibibytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
            return kibibytes / 1024
        }
        return 0
    }

    /// CPU time of the whole process (every thread), in ms.
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }
}
