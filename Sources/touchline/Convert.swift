import ArgumentParser
import TouchlineCore
import TouchlineInput
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
            writes them. A trace with several devices becomes a libinput record file with all \
            of them (as `libinput record --all` writes), or with the one --device N names; \
            evemu holds one device, so it needs --device N. If the input has a bad line, the events before it are kept in \
            OUT.partial and the error names the line.

            An existing OUT is replaced only once the conversion is complete (it is written to a \
            temporary beside it, removed on any failure or signal; a file-size limit is a write error, 74). A FIFO or a character device \
            is written in place, `-o -` writes to standard output, and OUT may not be the trace \
            or its .desc under any name (exit status 64); `convert - -o -` on one terminal is fine.
            """
    )

    @Argument(help: "The trace to convert (libinput record YAML, evemu, getevent -lt); - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write, or - for standard output.", valueName: "out"))
    var output: String

    @Option(help: "The output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .libinputRecord

    @Option(help: ArgumentHelp("Convert only device N of a trace with several (numbered as `touchline inspect` lists them). evemu holds one device, so an evemu output of such a trace needs it.", valueName: "N"))
    var device: Int?

    @OptionGroup var input: InputOptions

    func validate() throws {
        // Before the trace is read: "" failed only once the whole conversion was done.
        if output.isEmpty { throw ValidationError("-o/--output needs a file name, or - for standard output") }
    }

    func run() throws {
        try reportingErrors { try convert() }
    }

    /// Every file the conversion reads: the trace, and the `.desc` given or any that would be
    /// found beside it. The output must be none of them.
    var inputs: [String] {
        var paths = [file]
        if let desc = input.desc { paths.append(desc) }
        paths += TraceReader.descriptionCandidates(forEventsPath: file)
        return paths
    }

    func convert() throws {
        // A signal while the temporary exists removes it, whatever mask the parent left.
        TemporaryCleanup.install(unblock: true)
        let inputs = self.inputs
        // libinput record stores each device's events together: read them device by device.
        var trace = try TraceFile.open(file, input: input, order: .device)
        let devices = try chosenDevices(trace.devices)
        let sink = try FileByteSink(path: output, inputs: inputs)
        // The trace's device index of each output device.
        let selected = device
        func outputIndex(_ index: Int) throws -> Int? {
            if let selected { return index == selected ? 0 : nil }
            guard index < devices.count else {
                throw CLIError.data("\(file): an event of device \(index) after the output's \(counted(devices.count, "device")) \(devices.count == 1 ? "was" : "were") written; choose one with --device N")
            }
            return index
        }
        // On a bad input line, what was read before it is finished and kept as OUT.partial.
        var inputError: Error?
        // After a bad input line, that line is the cause to report (65): a write failing as the
        // output is finished (a full disk, /dev/full) only means there is no OUT.partial.
        func finish(_ body: () throws -> Void) throws {
            do { try body() } catch {
                guard let inputError else { throw error }
                warn("\(error)")
                throw inputError
            }
        }
        switch format {
        case .libinputRecord:
            // getevent traces lack BTN_TOUCH (and a slot-0 protocol B one its ABS_MT_SLOT),
            // which libinput's tools read touchscreens by (TouchButton).
            let fromGetevent = trace.format == "getevent"
            var buttons = devices.map { TouchButton(device: $0, options: input.assemblerOptions) }
            var writer = LibinputRecordWriter(devices: fromGetevent ? devices.map(TouchButton.describe) : devices, sink: sink)
            do {
                while let (index, event) = try trace.next() {
                    guard let out = try outputIndex(index) else { continue }
                    if fromGetevent {
                        try buttons[out].write(event) { try writer.write(TraceEvent(device: out, event: $0)) }
                    } else {
                        try writer.write(TraceEvent(device: out, event: event))
                    }
                }
            } catch let error as TraceError { inputError = error }
            try finish { try writer.finish() }
        case .evemu:
            var writer = EvemuWriter(device: devices[0], sink: sink)
            do {
                while let (index, event) = try trace.next() {
                    if try outputIndex(index) != nil { try writer.write(event) }
                }
            } catch let error as TraceError { inputError = error }
            try finish { try writer.finish() }
        }
        if let inputError {
            if !sink.writesInPlace, let reason = sink.keep(as: output + ".partial", inputs: inputs) {
                warn("\(output).partial: not written: \(reason)")
            }
            throw inputError
        }
        try sink.commit()
    }

    /// The devices to write: all of them, or the one `--device` names; evemu holds one device,
    /// so a trace with several needs `--device` (a usage error otherwise, before any output).
    func chosenDevices(_ devices: [DeviceDescription]) throws -> [DeviceDescription] {
        let list = devices.enumerated().map { "\($0.offset) '\($0.element.name)'" }.joined(separator: ", ")
        if let device {
            guard devices.indices.contains(device) else {
                throw CLIError(message: "\(file): --device \(device): the trace has \(counted(devices.count, "device")) (\(list)); expected 0 to \(devices.count - 1)", exitCode: 64)
            }
            return [devices[device]]
        }
        if format == .evemu && devices.count > 1 {
            throw CLIError(message: "\(file): has \(devices.count) devices (\(list)) and evemu describes one: choose it with --device N, or convert to libinput-record, which holds them all", exitCode: 64)
        }
        return devices
    }
}
