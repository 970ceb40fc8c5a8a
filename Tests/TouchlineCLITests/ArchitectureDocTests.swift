import Foundation
import Testing

// docs/architecture.md against what the package is: its module table (one row per target of
// Package.swift other than the test targets, with the target's dependencies) and its layout
// (what `ls Sources` shows). Package.swift is read as text, its targets from the `targets:`
// argument of `Package(…)`, so a module added there fails here until the document has its row.

/// A target as Package.swift declares it.
struct PackageTarget: Equatable {
    /// `target`, `executableTarget`, `systemLibrary`, `testTarget`…
    var kind: String
    var name: String
    var dependencies: [String]
    /// Its folder: `path:` when given, else Sources/NAME (Tests/NAME for a test target).
    var path: String
}

enum PackageManifest {
    /// Package.swift without its comments (a `//` inside a string literal stays).
    static func withoutComments(_ text: String) -> String {
        var out = "", inString = false, previous: Character = " "
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        while let line = lines.next() {
            inString = false
            previous = " "
            for c in line {
                if c == "\"" && previous != "\\" { inString.toggle() }
                if !inString && c == "/" && previous == "/" {
                    out.removeLast()
                    break
                }
                out.append(c)
                previous = c
            }
            out.append("\n")
        }
        return out
    }

    /// The elements of the bracketed or parenthesized list starting at `open`, split at its
    /// top-level commas (strings and nested brackets kept whole), and the index after it.
    static func elements(_ s: [Character], from open: Int) -> ([String], Int) {
        var depth = 0, inString = false, current = "", items: [String] = []
        var i = open
        while i < s.count {
            let c = s[i]
            if c == "\"" && (i == 0 || s[i - 1] != "\\") { inString.toggle() }
            if !inString {
                if "([{".contains(c) {
                    depth += 1
                    if depth == 1 { i += 1; continue }
                } else if ")]}".contains(c) {
                    depth -= 1
                    if depth == 0 {
                        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { items.append(current) }
                        return (items.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, i + 1)
                    }
                } else if c == "," && depth == 1 {
                    items.append(current)
                    current = ""
                    i += 1
                    continue
                }
            }
            current.append(c)
            i += 1
        }
        return (items, i)
    }

    /// The value after `label:` at the top level of an argument list, if any.
    static func argument(_ label: String, in arguments: [String]) -> String? {
        arguments.first { $0.hasPrefix(label + ":") }.map { String($0.dropFirst(label.count + 1)).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The first string literal in `text`.
    static func string(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "\"") else { return nil }
        let rest = text[text.index(after: open)...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func targets(_ text: String) throws -> [PackageTarget] {
        let s = Array(withoutComments(text))
        guard let start = String(s).range(of: "Package(") else { throw TestFailure("Package.swift has no Package(…)") }
        let (arguments, _) = elements(s, from: String(s).distance(from: String(s).startIndex, to: start.upperBound) - 1)
        guard let list = argument("targets", in: arguments) else { throw TestFailure("Package(…) has no targets:") }
        let (declarations, _) = elements(Array(list), from: 0)
        return try declarations.map { declaration in
            guard declaration.hasPrefix("."), let paren = declaration.firstIndex(of: "(") else {
                throw TestFailure("a target Package.swift declares other than as .kind(…): \(declaration)")
            }
            let kind = String(declaration[declaration.index(after: declaration.startIndex)..<paren])
            let (arguments, _) = elements(Array(declaration[paren...]), from: 0)
            guard let name = argument("name", in: arguments).flatMap(string) else { throw TestFailure("a target without a name: \(declaration)") }
            var dependencies: [String] = []
            if let list = argument("dependencies", in: arguments) {
                // "Name", .product(name: "Name", package: …), .target(name: "Name"), .byName(name: "Name")
                dependencies = try elements(Array(list), from: 0).0.map { element in
                    guard let dependency = string(element) else { throw TestFailure("\(name): a dependency without a name: \(element)") }
                    return dependency
                }
            }
            let folder = kind == "testTarget" ? "Tests" : "Sources"
            let path = argument("path", in: arguments).flatMap(string) ?? "\(folder)/\(name)"
            return PackageTarget(kind: kind, name: name, dependencies: dependencies, path: path)
        }
    }
}

enum ArchitectureDoc {
    static func text() throws -> String {
        try String(contentsOf: Paths.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    }

    /// The module table's rows: module → (pure?, depends on), in the document's spelling.
    static func rows(_ text: String) throws -> [(module: String, pure: String, dependencies: Set<String>)] {
        guard let section = text.range(of: "## Modules and the direction of dependencies") else {
            throw TestFailure("docs/architecture.md has no section '## Modules and the direction of dependencies'")
        }
        let lines = text[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return lines.dropFirst(2).map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            let dependencies = cells[2] == "–" ? [] : Set(cells[2].components(separatedBy: ", "))
            return (cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[1], dependencies)
        }
    }

    /// The folders the layout's code block lists under `Sources/`.
    static func layout(_ text: String) throws -> Set<String> {
        guard let section = text.range(of: "\n## Layout\n"),
              let open = text[section.upperBound...].range(of: "```\n"),
              let close = text[open.upperBound...].range(of: "```") else { throw TestFailure("docs/architecture.md has no '## Layout' with a code block") }
        var folders = Set<String>(), inSources = false
        for line in text[open.upperBound..<close.lowerBound].split(separator: "\n") {
            if !line.hasPrefix(" ") { inSources = line == "Sources/"; continue }
            if inSources { folders.insert(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0].trimmingCharacters(in: CharacterSet(charactersIn: "/"))) }
        }
        return folders
    }

    /// A dependency as the table writes it: `Touchline…` without the prefix.
    static func spelled(_ name: String) -> String {
        name.hasPrefix("Touchline") && name != "Touchline" ? String(name.dropFirst("Touchline".count)) : name
    }
}

@Suite struct ArchitectureDocTests {
    static func targets() throws -> [PackageTarget] {
        try PackageManifest.targets(String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// The reader itself, on a manifest with what the real one may come to hold.
    @Test func manifestReaderReadsEveryForm() throws {
        let text = """
            // let package = Package(targets: [.target(name: "Commented")])
            let package = Package(
                name: "P", // a comment
                products: [.library(name: "L", targets: ["A"])],
                dependencies: [.package(url: "https://example.com/x", from: "1.0.0")],
                targets: [
                    .target(name: "A"),
                    .target(name: "B", dependencies: ["A", .product(name: "X", package: "x"), .target(name: "C")], path: "Elsewhere/B",
                            swiftSettings: [.define("D")]),
                    .executableTarget(name: "e", dependencies: [.byName(name: "B")]),
                    .systemLibrary(name: "CL", pkgConfig: "l", providers: [.apt(["l-dev"])]),
                    .testTarget(name: "ATests", dependencies: ["A"]),
                ]
            )
            """
        #expect(try PackageManifest.targets(text) == [
            PackageTarget(kind: "target", name: "A", dependencies: [], path: "Sources/A"),
            PackageTarget(kind: "target", name: "B", dependencies: ["A", "X", "C"], path: "Elsewhere/B"),
            PackageTarget(kind: "executableTarget", name: "e", dependencies: ["B"], path: "Sources/e"),
            PackageTarget(kind: "systemLibrary", name: "CL", dependencies: [], path: "Sources/CL"),
            PackageTarget(kind: "testTarget", name: "ATests", dependencies: ["A"], path: "Tests/ATests"),
        ])
    }

    /// One row per non-test target, with its dependencies; no row for anything else.
    @Test func moduleTableIsPackageSwift() throws {
        let modules = try Self.targets().filter { $0.kind != "testTarget" }
        #expect(modules.count >= 10, "Package.swift read as \(modules.map(\.name))")
        let rows = try ArchitectureDoc.rows(ArchitectureDoc.text())
        #expect(Set(rows.map(\.module)) == Set(modules.map(\.name)),
                "rows without a target: \(Set(rows.map(\.module)).subtracting(modules.map(\.name)).sorted()); targets without a row: \(Set(modules.map(\.name)).subtracting(rows.map(\.module)).sorted())")
        for module in modules {
            guard let row = rows.first(where: { $0.module == module.name }) else { continue }
            let declared = Set(module.dependencies.map(ArchitectureDoc.spelled))
            #expect(row.dependencies == declared, "\(module.name): the table says it depends on \(row.dependencies.sorted()), Package.swift on \(declared.sorted())")
        }
    }

    /// A module the table calls pure imports neither Foundation nor Glibc.
    @Test func pureModulesImportNoSystem() throws {
        let targets = try Self.targets()
        for row in try ArchitectureDoc.rows(ArchitectureDoc.text()) where row.pure == "yes" {
            let target = try #require(targets.first { $0.name == row.module })
            let folder = Paths.root.appendingPathComponent(target.path)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            #expect(!files.isEmpty, "\(row.module): no Swift file in \(target.path)")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported import ") || $0.hasPrefix("@testable import ") }
                let system = imports.filter { ["Foundation", "FoundationEssentials", "Glibc", "Darwin"].contains(String($0.split(separator: " ").last ?? "")) }
                #expect(system.isEmpty, "\(row.module) is called pure but \(target.path)/\(file) has \(system)")
            }
        }
    }

    /// The Swift files under `folder` (relative to the package), without their comments.
    static func swiftFiles(under folder: String) throws -> [(path: String, code: String)] {
        let root = Paths.root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.sorted().map { file in
            (folder + "/" + file, PackageManifest.withoutComments(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)))
        }
    }

    /// Time is data: a pure module reads no clock (its deadlines are published, the driver
    /// honours them). The names are spelled in pieces so that this file does not hold them.
    @Test func pureModulesReadNoClock() throws {
        let clocks = ["clock" + "_gettime", "Continuous" + "Clock", "Suspending" + "Clock", "Date" + "()", "Dispatch" + "Time",
                      "gettime" + "ofday", "time" + "(nil)", "Instant" + ".now"]
        let targets = try Self.targets()
        for row in try ArchitectureDoc.rows(ArchitectureDoc.text()) where row.pure == "yes" {
            let target = try #require(targets.first { $0.name == row.module })
            for (path, code) in try Self.swiftFiles(under: target.path) {
                let found = clocks.filter { code.contains($0) }
                #expect(found.isEmpty, "\(row.module) is called pure but \(path) reads a clock: \(found)")
            }
        }
    }

    /// The executable parses, validates, wires and runs: the system is reached through
    /// TouchlineInput and TouchlineLive, never imported by it.
    @Test func theExecutableImportsNoSystem() throws {
        let target = try #require(try Self.targets().first { $0.kind == "executableTarget" && $0.name == "touchline" })
        for (path, code) in try Self.swiftFiles(under: target.path) {
            let imports = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            let system = imports.filter { ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Musl"].contains(String($0.split(separator: " ").last ?? "")) }
            #expect(system.isEmpty, "\(path) imports \(system)")
        }
    }

    /// Tests wait on descriptors and processes, never by sleeping (a sleep is a guess at how
    /// long something takes, and load makes it wrong). Shell commands inside strings may sleep.
    @Test func testsNeverSleep() throws {
        let sleeps = ["u" + "sleep(", "nano" + "sleep(", "Thread." + "sleep(", "Task." + "sleep(", " sleep" + "(", "(sleep" + "("]
        for (path, code) in try Self.swiftFiles(under: "Tests") {
            let found = sleeps.filter { code.contains($0) }
            #expect(found.isEmpty, "\(path) sleeps: \(found)")
        }
    }

    /// The stored properties of `type`'s body (its own braces, not its nested types'), in the
    /// Swift files under `folder` whose name starts with the type's: computed properties (a
    /// `var` whose braces follow without an initializer and are no observer) do not count.
    static func storedProperties(of type: String, under folder: String) throws -> [String] {
        var stored: [String] = []
        for (path, code) in try swiftFiles(under: folder) where path.split(separator: "/").last!.hasPrefix(type) {
            let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            var depth = 0, inside = false
            for (i, line) in lines.enumerated() {
                if depth == 0 && line.range(of: #"^(public |internal )?(final )?(struct|class) "# + type + #"\b"#, options: .regularExpression) != nil {
                    inside = true
                }
                if inside && depth == 1, line.range(of: #"^((public|internal|private|fileprivate|private\(set\)|internal\(set\)|static|lazy|weak) )*(var|let) "#, options: .regularExpression) != nil,
                   !line.contains("static ") {
                    // `var x: T { … }` is computed unless its braces are an observer's.
                    let head = line.split(separator: "{", maxSplits: 1, omittingEmptySubsequences: false)
                    let after = head.count > 1 && !head[1].trimmingCharacters(in: .whitespaces).isEmpty
                        ? head[1].trimmingCharacters(in: .whitespaces) : (lines[(i + 1)...].first { !$0.isEmpty } ?? "")
                    let computed = (" " + line).contains(" var ") && head.count > 1 && !head[0].contains("=")
                        && !after.hasPrefix("didSet") && !after.hasPrefix("willSet")
                    if !computed { stored.append("\(path): \(line)") }
                }
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
                if inside && depth == 0 && line.contains("}") { inside = false }
            }
        }
        return stored
    }

    /// The live session is parts with one owner each (issue 32, item 3): its own state stays a
    /// handful of parts, not one flat list of everything live.
    @Test func liveSessionHasAtMostTenStoredProperties() throws {
        let stored = try Self.storedProperties(of: "LiveSession", under: "Sources/TouchlineLive")
        #expect(stored.count >= 5, "the reader found \(stored.count) stored properties: \(stored)")
        #expect(stored.count <= 10, "LiveSession holds \(stored.count) stored properties (at most 10; group state into an owned part): \(stored.joined(separator: "; "))")
    }

    /// The layout is what `ls Sources` shows, and each folder is a module's.
    @Test func layoutIsWhatSourcesHolds() throws {
        let listed = try ArchitectureDoc.layout(ArchitectureDoc.text())
        let sources = Paths.root.appendingPathComponent("Sources")
        let folders = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: sources.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        })
        #expect(listed == folders, "docs/architecture.md's layout lists \(listed.sorted()); Sources holds \(folders.sorted())")
        let paths = Set(try Self.targets().map(\.path))
        for folder in folders { #expect(paths.contains("Sources/\(folder)"), "Sources/\(folder) is no target's folder") }
    }
}
