/// An NSKeyedArchiver archive (`$archiver`, `$top`, `$objects`) read from a property list:
/// objects are found by following UIDs from `$top`, never by a fixed index into `$objects`.
public struct KeyedArchive: Sendable {
    /// The archive's `$objects`, which UIDs index.
    public let objects: [PropertyListValue]
    /// The archive's `$top` dictionary (`root` names the root object).
    public let top: PropertyListDictionary

    /// The archive in `plist`, or nil when it has no `$objects` array or no `$top` dictionary.
    public init?(_ plist: PropertyListValue) {
        guard let objects = plist["$objects"]?.array, let top = plist["$top"]?.dictionary else { return nil }
        self.objects = objects
        self.top = top
    }

    /// The root object: the one `$top.root` points at.
    public var root: PropertyListValue? {
        guard case .uid(let uid)? = top["root"] else { return nil }
        return object(at: uid)
    }

    /// The object `uid` points at in `$objects`, or nil when it is out of range.
    public func object(at uid: UInt64) -> PropertyListValue? {
        uid < UInt64(objects.count) ? objects[Int(uid)] : nil
    }

    /// `value` with a UID replaced by the object it points at (one step; archives never point a
    /// UID at another UID). Nil for a UID out of range.
    public func resolve(_ value: PropertyListValue) -> PropertyListValue? {
        guard case .uid(let uid) = value else { return value }
        return object(at: uid)
    }

    /// The value for `key` in an archived dictionary (`NS.keys` and `NS.objects`) or in an
    /// archived object's own keys, with UIDs followed.
    public func value(forKey key: String, in object: PropertyListValue) -> PropertyListValue? {
        if let keys = object["NS.keys"]?.array, let values = object["NS.objects"]?.array {
            for (keyReference, valueReference) in zip(keys, values) where resolve(keyReference)?.string == key {
                return resolve(valueReference)
            }
            return nil
        }
        return object[key].flatMap(resolve)
    }
}
