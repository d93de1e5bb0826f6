import PropertyList
import Testing

/// NSKeyedArchiver archives, built by plistlib the way Foundation writes them.
@Suite("Keyed archives")
struct KeyedArchiveTests {
    /// An archived dictionary whose root is not the first object after `$null`, so that only
    /// following `$top.root` finds it; plus an archived object with keys of its own.
    private static let script = """
        archive = {'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': UID(3)},
                   '$objects': ['$null', 'relativePath',
                                {'$classname': 'NSDictionary', '$classes': ['NSDictionary', 'NSObject']},
                                {'$class': UID(2), 'NS.keys': [UID(1), UID(5), UID(7)], 'NS.objects': [UID(4), UID(6), UID(8)]},
                                'papers/a.pdf', 'aliasData', b'\\x00\\x01', 'note', {'$class': UID(2), 'title': UID(9), 'count': 3},
                                'Title']}
        emit(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
        """

    @Test("values are found by following UIDs from $top.root")
    func followsUIDs() throws {
        let plist = try BinaryPropertyList.parse(try Plistlib.bytes(Self.script))
        let archive = try #require(KeyedArchive(plist))
        let root = try #require(archive.root)
        #expect(archive.value(forKey: "relativePath", in: root) == .string("papers/a.pdf"))
        #expect(archive.value(forKey: "aliasData", in: root) == .data([0, 1]))
        #expect(archive.value(forKey: "missing", in: root) == nil)
        let note = try #require(archive.value(forKey: "note", in: root))
        #expect(archive.value(forKey: "title", in: note) == .string("Title"))
        #expect(archive.value(forKey: "count", in: note) == .integer(3))
        #expect(archive.object(at: 0) == .string("$null"))
        #expect(archive.object(at: 10) == nil)
        #expect(archive.top["root"] == .uid(3))
    }

    @Test("archives without the keyed-archiver shape are refused, dangling UIDs give nil")
    func malformedArchives() {
        #expect(KeyedArchive(.array([])) == nil)
        #expect(KeyedArchive(.dictionary(PropertyListDictionary([Samples.entry("$objects", .array([]))]))) == nil)
        let dangling = PropertyListValue.dictionary(PropertyListDictionary([
            Samples.entry("$top", .dictionary(PropertyListDictionary([Samples.entry("root", .uid(9))]))),
            Samples.entry("$objects", .array([.string("$null"), .dictionary(PropertyListDictionary([
                Samples.entry("NS.keys", .array([.uid(2)])), Samples.entry("NS.objects", .array([.uid(40)])),
            ])), .string("k")])),
        ]))
        let archive = KeyedArchive(dangling)
        #expect(archive != nil)
        #expect(archive?.root == nil)
        if let archive, let object = archive.object(at: 1) {
            #expect(archive.value(forKey: "k", in: object) == nil)
        }
        let notUID = PropertyListValue.dictionary(PropertyListDictionary([
            Samples.entry("$top", .dictionary(PropertyListDictionary([Samples.entry("root", .integer(1))]))),
            Samples.entry("$objects", .array([.string("$null"), .string("x")])),
        ]))
        #expect(KeyedArchive(notUID)?.root == nil)
    }

    @Test("an archive we write reads in plistlib with its UIDs")
    func ourArchiveInPlistlib() throws {
        let plist = try BinaryPropertyList.parse(try Plistlib.bytes(Self.script))
        let answer = try Plistlib.output("""
            archive = plistlib.loads(data)
            root = archive['$objects'][archive['$top']['root'].data]
            keys = [archive['$objects'][uid.data] for uid in root['NS.keys']]
            print(archive['$archiver'], keys)
            """, input: BinaryPropertyList.serialize(plist))
        #expect(answer == "NSKeyedArchiver ['relativePath', 'aliasData', 'note']")
    }
}
