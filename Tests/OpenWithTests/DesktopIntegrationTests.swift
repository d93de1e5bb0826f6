import BibreadTestSupport
import Foundation
import OpenWith
import Testing

@Suite("Desktop integration of bibread: links")
struct DesktopIntegrationTests {
    private func read(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("install writes the desktop file and registers it with xdg-mime")
    func install() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let xdgMime = try programs.addRecorder("xdg-mime")
        let dataHome = programs.folder.appendingPathComponent("data")
        let report = try DesktopIntegration.install(bibreadExecutable: "/usr/local/bin/bibread", dataHome: dataHome,
                                                    xdgMime: xdgMime, environment: programs.environment)
        let file = dataHome.appendingPathComponent("applications/bibread.desktop")
        #expect(report.desktopFile == file)
        #expect(read(file) == """
        [Desktop Entry]
        Type=Application
        Name=bibread
        Exec=/usr/local/bin/bibread open %u
        Terminal=true
        NoDisplay=true
        MimeType=x-scheme-handler/bibread;

        """)
        #expect(report.xdgMime == .ran(.exited(0)))
        #expect(report.isRegistered)
        #expect(programs.recordedArguments("xdg-mime", timeout: 0) == ["default", "bibread.desktop", "x-scheme-handler/bibread"])
        let listing = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(listing == ["bibread.desktop"], "no temporary file left behind")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test("installing again replaces the file")
    func reinstall() throws {
        let dataHome = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dataHome) }
        _ = try DesktopIntegration.install(bibreadExecutable: "/old/bibread", dataHome: dataHome, xdgMime: nil)
        let report = try DesktopIntegration.install(bibreadExecutable: "/new/bibread", dataHome: dataHome, xdgMime: nil)
        #expect(report.xdgMime == .notAvailable)
        #expect(!report.isRegistered)
        #expect(read(report.desktopFile)?.contains("Exec=/new/bibread open %u\n") == true)
    }

    @Test("paths with spaces and special characters are quoted by the Desktop Entry rules", arguments: [
        ("/opt/my apps/bibread", #"Exec="/opt/my apps/bibread" open %u"#),
        ("/opt/a$b/bibread", #"Exec="/opt/a\\$b/bibread" open %u"#),
        ("/opt/100%/bibread", "Exec=/opt/100%%/bibread open %u"),
        (#"/opt/back\slash "q"/bibread"#, #"Exec="/opt/back\\\\slash \\"q\\"/bibread" open %u"#),
        ("/opt/it's/bibread", #"Exec="/opt/it's/bibread" open %u"#),
        ("/opt/größe/bibread", "Exec=/opt/größe/bibread open %u"),
    ])
    func quoting(path: String, line: String) throws {
        let text = try DesktopIntegration.desktopEntry(bibreadExecutable: path)
        #expect(text.split(separator: "\n").contains { $0 == line }, "\(text)")
    }

    @Test("a relative path or a control character is refused")
    func refusedPaths() {
        #expect(throws: DesktopIntegrationError.relativeExecutable("bibread")) {
            try DesktopIntegration.desktopEntry(bibreadExecutable: "bibread")
        }
        #expect(throws: DesktopIntegrationError.unrepresentableExecutable("/a\nb")) {
            try DesktopIntegration.desktopEntry(bibreadExecutable: "/a\nb")
        }
    }

    @Test("a failing xdg-mime is reported, the file stays")
    func xdgMimeFails() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let xdgMime = try programs.addScript("xdg-mime", body: "exit 2")
        let dataHome = programs.folder.appendingPathComponent("data")
        let report = try DesktopIntegration.install(bibreadExecutable: "/usr/bin/bibread", dataHome: dataHome, xdgMime: xdgMime)
        #expect(report.xdgMime == .ran(.exited(2)))
        #expect(FileManager.default.fileExists(atPath: report.desktopFile.path))
        let missing = programs.folder.appendingPathComponent("no-xdg-mime").path
        let second = try DesktopIntegration.install(bibreadExecutable: "/usr/bin/bibread", dataHome: dataHome, xdgMime: missing)
        #expect(second.xdgMime == .failedToStart(.notFound(missing)))
    }

    @Test("uninstall removes the file and bibread's association, and leaves the rest")
    func uninstall() throws {
        let home = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let dataHome = home.appendingPathComponent("data")
        let configHome = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
        let report = try DesktopIntegration.install(bibreadExecutable: "/usr/bin/bibread", dataHome: dataHome, xdgMime: nil)
        let list = configHome.appendingPathComponent("mimeapps.list")
        try Data("""
        [Default Applications]
        text/html=firefox.desktop
        x-scheme-handler/bibread=bibread.desktop;

        [Added Associations]
        x-scheme-handler/bibread = other.desktop;bibread.desktop;
        application/pdf=org.pwmt.zathura.desktop;

        """.utf8).write(to: list)
        let removal = try DesktopIntegration.uninstall(dataHome: dataHome, configHome: configHome)
        #expect(removal.removedDesktopFile == report.desktopFile)
        #expect(!FileManager.default.fileExists(atPath: report.desktopFile.path))
        #expect(removal.editedAssociations == [list])
        #expect(read(list) == """
        [Default Applications]
        text/html=firefox.desktop

        [Added Associations]
        x-scheme-handler/bibread=other.desktop;
        application/pdf=org.pwmt.zathura.desktop;

        """)
        let again = try DesktopIntegration.uninstall(dataHome: dataHome, configHome: configHome)
        #expect(again.removedDesktopFile == nil && again.editedAssociations.isEmpty, "nothing left to undo")
    }
}
