/// The digit keys 1 to 9: in menus, the Nth line.
enum AnyDigit {
    static let keys: [Key] = (1...9).map { Key.character(Character(String($0))) }
}
