import CZlib

/// zlib streams (RFC 1950: deflate with a zlib header and Adler-32), as the links carry them.
enum Zlib {
    /// `bytes` compressed with `compress2` at `level` (9, the best, by default).
    ///
    /// `compress2` with a `compressBound` buffer fails only when memory runs out; that is
    /// treated like any other allocation failure.
    static func compress(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &capacity, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { fatalError("zlib compress2 failed with status \(status) (out of memory)") }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// Inflates the zlib stream in `compressed`, which must give exactly `expectedLength` bytes
    /// and end where the input ends.
    ///
    /// The output buffer is exactly `expectedLength` bytes and inflating stops when it is full,
    /// so a stream that would inflate to far more (a "zip bomb") costs no more than the
    /// declared length: one more byte of output is enough to refuse it.
    static func inflate(_ compressed: [UInt8], expectedLength: Int) throws -> [UInt8] {
        guard !compressed.isEmpty else { throw ReadingListError.badLink("the link holds no compressed data") }
        guard expectedLength > 0, expectedLength <= Int(UInt32.max), compressed.count <= Int(UInt32.max) else {
            throw ReadingListError.badLink("the link declares an impossible length of \(expectedLength) bytes")
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        var status = czlib_inflate_init(stream)
        guard status == Z_OK else { throw error(status, stream, "cannot start inflating the link's data") }
        defer { inflateEnd(stream) }

        var input = compressed
        var output = [UInt8](repeating: 0, count: expectedLength)
        var extra: [UInt8] = [0]
        var produced = 0
        var excess = 0
        var remainingInput = 0
        try input.withUnsafeMutableBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { destination in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = destination.baseAddress
                stream.pointee.avail_out = uInt(destination.count)
                status = CZlib.inflate(stream, Z_FINISH)
                produced = destination.count - Int(stream.pointee.avail_out)
                if status != Z_STREAM_END, status != Z_DATA_ERROR, status != Z_MEM_ERROR, status != Z_NEED_DICT,
                   stream.pointee.avail_out == 0 {
                    // The buffer is full but the stream has not ended: one more byte of room
                    // tells whether it would inflate further or only has its end left.
                    try extra.withUnsafeMutableBufferPointer { spare in
                        stream.pointee.next_out = spare.baseAddress
                        stream.pointee.avail_out = 1
                        status = CZlib.inflate(stream, Z_FINISH)
                        excess = 1 - Int(stream.pointee.avail_out)
                        if status == Z_STREAM_ERROR { throw error(status, stream, "inflating failed") }
                    }
                }
                remainingInput = Int(stream.pointee.avail_in)
            }
        }
        if excess > 0 {
            throw ReadingListError.badLink("the link's data inflates past its declared length of \(expectedLength) bytes")
        }
        switch status {
        case Z_STREAM_END:
            guard produced == expectedLength else {
                throw ReadingListError.badLink(
                    "the link's data inflates to \(produced) bytes, fewer than its declared length of \(expectedLength)")
            }
            guard remainingInput == 0 else {
                throw ReadingListError.badLink("\(remainingInput) bytes follow the end of the link's compressed data")
            }
            return output
        case Z_OK, Z_BUF_ERROR:
            throw ReadingListError.badLink(
                "the link's compressed data is truncated (it ends after inflating \(produced) of \(expectedLength) bytes)")
        case Z_DATA_ERROR:
            throw error(status, stream, "the link's compressed data is corrupt")
        default:
            throw error(status, stream, "inflating the link's data failed")
        }
    }

    /// A `.badLink` for zlib status `status`, with zlib's own message when it has one.
    private static func error(_ status: Int32, _ stream: UnsafeMutablePointer<z_stream>, _ what: String) -> ReadingListError {
        var detail = "zlib status \(status)"
        if let message = stream.pointee.msg { detail = String(cString: message) }
        return .badLink("\(what) (\(detail))")
    }
}
