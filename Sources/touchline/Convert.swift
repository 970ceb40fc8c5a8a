import ArgumentParser
import TouchlineCore
import TouchlineTrace

struct Convert: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case libinputRecord = "libinput-record"
        case evemu
    }

    static let configuration = CommandConfiguration(
        abstract: "Rewrite a trace as libinput record YAML (default) or evemu.",
        discussion: """
            The output reads in libinput's own tools (libinput analyze, libinput replay) and \
            replays to the same frames as the input; times start at zero, as libinput record \
            writes them. If the input has a bad line, the events before it are kept in \
            OUT.partial and the error names the line.
            """
    )

    @Argument(help: "The trace to convert (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "out"))
    var output: String

    @Option(help: "The output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .libinputRecord

    @OptionGroup var input: InputOptions

    func run() throws {
        try reportingErrors {
            if sameFile(file, output) {
                throw CLIError(message: "\(output): is the same file as the input; choose another output", exitCode: 64)
            }
            var trace = try TraceFile.open(file, input: input)
            let sink = try FileByteSink(path: output)
            // On a bad input line, what was read before it is finished and kept as OUT.partial.
            var inputError: Error?
            switch format {
            case .libinputRecord:
                var writer = LibinputRecordWriter(devices: trace.devices, sink: sink)
                do {
                    while let (index, event) = try trace.next() { try writer.write(TraceEvent(device: index, event: event)) }
                } catch let error as TraceError { inputError = error }
                try writer.finish()
            case .evemu:
                guard trace.devices.count == 1 else {
                    throw CLIError.data("\(file): has \(trace.devices.count) devices; evemu describes one: convert to libinput-record instead")
                }
                var writer = EvemuWriter(device: trace.devices[0], sink: sink)
                do {
                    while let (_, event) = try trace.next() { try writer.write(event) }
                } catch let error as TraceError { inputError = error }
                try writer.finish()
            }
            if let inputError {
                sink.keep(as: output + ".partial")
                throw inputError
            }
            try sink.commit()
        }
    }
}
