import BibModel
import Testing
import BibreadTestSupport

@Suite("names")
struct NameTests {
    /// (raw name, first, von, last, jr)
    static let forms: [(String, String, String, String, String)] = [
        ("Donald E. Knuth", "Donald E.", "", "Knuth", ""),
        ("Knuth, Donald E.", "Donald E.", "", "Knuth", ""),
        ("Ludwig van Beethoven", "Ludwig", "van", "Beethoven", ""),
        ("van Beethoven, Ludwig", "Ludwig", "van", "Beethoven", ""),
        ("van der Aalst, Wil M. P.", "Wil M. P.", "van der", "Aalst", ""),
        ("Jean de la Fontaine", "Jean", "de la", "Fontaine", ""),
        ("King, Jr, Martin Luther", "Martin Luther", "", "King", "Jr"),
        ("van der Berg, Jr, Pieter", "Pieter", "van der", "Berg", "Jr"),
        ("{Barnes and Noble}", "", "", "Barnes and Noble", ""),
        ("{The Unicode Consortium}", "", "", "The Unicode Consortium", ""),
        (#"G{\"o}del, Kurt"#, "Kurt", "", "Gödel", ""),
        (#"Kurt G{\"o}del"#, "Kurt", "", "Gödel", ""),
        (#"{\'E}douard Lucas"#, "Édouard", "", "Lucas", ""),
        (#"Paul Erd\H{o}s"#, "Paul", "", "Erdős", ""),
        ("Plato", "", "", "Plato", ""),
        ("山田, 太郎", "太郎", "", "山田", ""),
        ("Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin", "Charles Louis Xavier Joseph", "de la", "Vallée Poussin", ""),
        ("Brinch~Hansen, Per", "Per", "", "Brinch Hansen", ""),
        (#"Quint\~{a}o Pereira, Fernando Magno"#, "Fernando Magno", "", "Quintão Pereira", ""),
        (#"Jo\~ao Sim\~oes"#, "João", "", "Simões", ""),
    ]

    @Test(arguments: forms)
    func nameForm(_ raw: String, _ first: String, _ von: String, _ last: String, _ jr: String) throws {
        let list = NameList(raw: raw)
        let name = try #require(list.names.first)
        #expect(list.names.count == 1)
        #expect(name == PersonName(first: first, von: von, last: last, jr: jr))
    }

    /// (raw list, display)
    static let displays: [(String, String)] = [
        ("Knuth, Donald E.", "Knuth"),
        ("Donald E. Knuth and Leslie Lamport", "Knuth & Lamport"),
        ("Knuth, D. and Lamport, L. and Plass, M.", "Knuth, Lamport & Plass"),
        ("A. Knuth and B. Lamport and C. Plass and D. Liang", "Knuth et al."),
        ("Knuth, D. and others", "Knuth et al."),
        ("Wil van der Aalst and Kees van Hee", "van der Aalst & van Hee"),
        ("{Barnes and Noble} and Smith, J.", "Barnes and Noble & Smith"),
        ("Knuth AND Lamport", "Knuth & Lamport"),
        ("", ""),
    ]

    @Test(arguments: displays)
    func display(_ raw: String, _ expected: String) {
        #expect(NameList(raw: raw).display == expected)
    }

    @Test func andInsideBracesDoesNotSplit() {
        #expect(NameList(raw: "{Barnes and Noble} and {Sears, Roebuck and Co.}").names.map(\.last) == ["Barnes and Noble", "Sears, Roebuck and Co."])
    }

    @Test func wordsContainingAndDoNotSplit() {
        #expect(NameList(raw: "Alexander Anderson and Sandra Band").names.map(\.last) == ["Anderson", "Band"])
    }

    @Test func fullNameReadsNaturally() throws {
        let name = try #require(NameList(raw: "van der Berg, Jr, Pieter").names.first)
        #expect(name.fullName == "Pieter van der Berg, Jr")
        #expect(name.shortName == "van der Berg")
    }

    @Test func editorsAreShownWhenThereAreNoAuthors() throws {
        let library = Fixtures.library("@book{k, editor = {Ann Smith and Bob Jones}, title = {T}}")
        let entry = try #require(library.entries.first)
        #expect(entry.authors.isEmpty)
        #expect(entry.creators.display == "Smith & Jones")
    }
}
