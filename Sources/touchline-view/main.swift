// `touchline-view MODE [--host A] [--port N] [--token T] [--idle S]`: the HTTP server of
// `touchline view` in a process of its own, so that the `touchline` binary does not link
// SwiftNIO (docs/view.md "Two executables"). Not run by hand: `touchline view` starts it
// beside itself and says what to serve through its standard input (TouchlineView's
// ViewHost.swift). MODE names the page: `view`, or `calibrate` (`touchline calibrate DEVICE`'s
// crosshairs, whose answers go out on standard output as `answer QUERY` lines). A new page is
// one more case below and the bytes of its page in TouchlineView.
import TouchlineCalibration
import TouchlineView

let usage = "usage: touchline-view view|calibrate [--host ADDRESS] [--port N] [--token TOKEN] [--idle SECONDS] (started by `touchline view`, which writes what to serve on its standard input)"

func fail(_ message: String, _ status: Int32) -> Never {
    StandardStreams.write(Array("touchline-view: \(message)\n".utf8), to: 2)
    StandardStreams.exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { fail(usage, 64) }
arguments.removeFirst()
let page: [UInt8]
var answers: PageAnswers?
switch mode {
case "view": page = ViewPage.html
case "calibrate":
    // The answer's syntax is CalibrationRun's own (shown=N, redo=N); accepted ones go to the
    // command at once, one line each (shorter than a pipe's atomic write, so lines written from
    // the server's threads never interleave).
    let calibrateAnswers = PageAnswers(forward: { query in _ = StandardStreams.write(Array("answer \(query)\n".utf8)) }) {
        CalibrationRun.Answer.parse($0) != nil
    }
    answers = calibrateAnswers
    page = CalibratePage.html(secret: calibrateAnswers.secret)
default: fail("unknown mode \(mode.debugDescription); \(usage)", 64)
}

var options = ViewServerOptions()
var index = 0
while index < arguments.count {
    let name = arguments[index]
    guard index + 1 < arguments.count else { fail("\(name) needs a value; \(usage)", 64) }
    let value = arguments[index + 1]
    switch name {
    case "--host": options.host = value
    case "--port":
        guard let port = Int(value), 0...65535 ~= port else { fail("--port takes 0 to 65535, found \(value)", 64) }
        options.port = port
    case "--token": options.token = value
    case "--idle":
        guard let seconds = Int64(value), 1...3600 ~= seconds else { fail("--idle takes 1 to 3600 seconds, found \(value)", 64) }
        options.idleSeconds = seconds
    default: fail("unknown option \(name); \(usage)", 64)
    }
    index += 2
}

// Off loopback the page is open to the network: only with a token given on purpose. One is
// made here for the user to pass, not used on their behalf. Said before the parent's input is
// read, so that the parent's command stops at once.
if options.token == nil && !ViewServer.isLoopback(options.host) {
    fail("--host \(options.host) is not a loopback address: anyone who can reach it could watch the screen; run again with --token (this one was just made: --token \(ViewServer.makeToken()))", 64)
}

StandardStreams.ignoreBrokenPipes()
do {
    try ViewHost.run(page: page, answers: answers, options: options, input: StandardStreams.read, output: { StandardStreams.write($0) })
} catch {
    fail(error.message, error.message.hasPrefix("cannot listen") || error.message.hasPrefix("--token") ? 64 : 70)
}
