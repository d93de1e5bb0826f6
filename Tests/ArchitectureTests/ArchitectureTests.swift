import Foundation
import Testing

/// docs/ARCHITECTURE.md and the README's layout, checked against Package.swift and the sources,
/// so that neither can drift from the code: an import the document does not allow, a target it
/// does not name, or a folder the README leaves out fails here, with the file and line.
@Suite struct ArchitectureTests {
    /// What every test here reads: the package's targets (from SwiftPM), the document's table,
    /// the README's layout. Read once.
    struct Package {
        let root: URL
        let targets: [PackageTarget]
        let table: ArchitectureTable

        static let current = Result { () throws -> Package in
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let document = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
            return Package(root: root, targets: try PackageTarget.all(inPackageAt: root),
                           table: try ArchitectureTable(document: document))
        }

        var targetNames: Set<String> { Set(targets.map(\.name)) }
    }

    @Test func everyImportIsOneTheDocumentAllows() throws {
        let package = try Package.current.get()
        var filesRead = 0
        for target in package.targets {
            for file in target.sourceFiles(inPackageAt: package.root) where file.hasSuffix(".swift") {
                let relative = String(file.dropFirst(target.path.count + 1))
                guard let (key, rule) = package.table.rule(forTarget: target.name, file: relative) else { continue }
                let source = try String(contentsOf: package.root.appendingPathComponent(file), encoding: .utf8)
                filesRead += 1
                for found in SwiftImport.all(in: source) where !rule.allowed.contains(found.module) {
                    Issue.record("""
                        \(file):\(found.line): imports \(found.module), which docs/ARCHITECTURE.md does not allow \
                        for \(key) (allowed: \(Self.list(rule.allowed)))
                        """)
                }
            }
        }
        #expect(filesRead > 100, "read only \(filesRead) Swift files: the targets' folders were not found")
    }

    @Test func everyTargetHasARowAndEveryRowATarget() throws {
        let package = try Package.current.get()
        for target in package.targets where package.table.rules[target.name] == nil {
            Issue.record("""
                Package.swift has the target \(target.name) (\(target.path)), which the table under \
                '\(ArchitectureTable.rulesHeading)' in docs/ARCHITECTURE.md does not name: add a row for it
                """)
        }
        for (key, rule) in package.table.rules {
            let components = key.split(separator: "/").map(String.init)
            guard let target = package.targets.first(where: { $0.name == components[0] }) else {
                Issue.record("""
                    docs/ARCHITECTURE.md:\(rule.line): names \(key), but Package.swift has no target \(components[0])
                    """)
                continue
            }
            let inside = ([target.path] + components.dropFirst()).joined(separator: "/")
            if !FileManager.default.fileExists(atPath: package.root.appendingPathComponent(inside).path) {
                Issue.record("docs/ARCHITECTURE.md:\(rule.line): names \(key), but \(inside) does not exist")
            }
        }
    }

    @Test func everyDependencyInPackageSwiftIsOneTheDocumentAllows() throws {
        let package = try Package.current.get()
        for target in package.targets {
            let rows = package.table.rules.filter { $0.key == target.name || $0.key.hasPrefix(target.name + "/") }
            guard !rows.isEmpty else { continue }   // reported by everyTargetHasARowAndEveryRowATarget
            let allowed = rows.values.reduce(into: Set<String>()) { $0.formUnion($1.allowed) }
            for dependency in target.dependencies where !allowed.contains(dependency) {
                Issue.record("""
                    Package.swift: \(target.name) depends on \(dependency), which docs/ARCHITECTURE.md does not \
                    allow for \(target.name) or any folder of it (allowed: \(Self.list(allowed)))
                    """)
            }
        }
    }

    @Test func everyModuleTheDocumentAllowsExists() throws {
        let package = try Package.current.get()
        let known = package.targetNames.union(package.table.externalModules)
        let rows = Dictionary(package.table.rules.values.map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first })
        for (line, rule) in rows.sorted(by: { $0.key < $1.key }) {
            for module in rule.allowed.sorted() where !known.contains(module) {
                Issue.record("""
                    docs/ARCHITECTURE.md:\(line): allows \(module), which is neither a target of Package.swift \
                    nor in the table under '\(ArchitectureTable.externalsHeading)'
                    """)
            }
        }
    }

    @Test func theReadmeLayoutListsEveryTargetFolder() throws {
        let package = try Package.current.get()
        let readme = try String(contentsOf: package.root.appendingPathComponent("README.md"), encoding: .utf8)
        let layout = try ReadmeLayout(readme: readme)
        let listed = Set(layout.paths.map(\.path))
        for target in package.targets where !listed.contains(target.path) {
            Issue.record("README.md: the section '\(ReadmeLayout.heading)' does not list \(target.path) (the target \(target.name))")
        }
        for (path, line) in layout.paths where !FileManager.default.fileExists(atPath: package.root.appendingPathComponent(path).path) {
            Issue.record("README.md:\(line): the layout lists \(path), which does not exist")
        }
    }

    private static func list(_ modules: Set<String>) -> String {
        modules.isEmpty ? "nothing" : modules.sorted().joined(separator: ", ")
    }
}
