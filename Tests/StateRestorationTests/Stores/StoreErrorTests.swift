import StateRestoration
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct StoreErrorTests {
    @Test("The description names the operation, the path, the step and the system's message")
    func descriptionWithErrno() {
        let error = StoreError(
            code: .syncFailed, operation: .write, path: "/tmp/x/main.restoration", reason: "fsync failed",
            errno: ENOSPC)
        #expect(
            error.description
                == "cannot write /tmp/x/main.restoration: fsync failed: No space left on device (errno \(ENOSPC))")
    }

    @Test("Without a path or errno the description is just the operation and the reason")
    func descriptionWithoutErrno() {
        let error = StoreError(code: .readFailed, operation: .read, reason: "disk unplugged")
        #expect(error.description == "cannot read: disk unplugged")
        #expect("\(StoreError.Code.noSpace)" == "noSpace")
        #expect("\(StoreError.Operation.reject)" == "reject")
    }

    @Test("Errors are equal when all their parts are equal")
    func equality() {
        let error = StoreError(code: .writeFailed, operation: .write, path: "/a", reason: "write failed", errno: EIO)
        var other = error
        #expect(error == other)
        other.errno = ENOSPC
        #expect(error != other)
        #expect(StoreError.Code(rawValue: "writeFailed") == .writeFailed)
    }

    @Test(
        "Permission and space errnos win over the step's code",
        arguments: [
            (EACCES, StoreError.Code.permissionDenied), (EPERM, .permissionDenied), (EROFS, .permissionDenied),
            (ENOSPC, .noSpace), (EDQUOT, .noSpace), (EIO, .syncFailed),
        ])
    func errnoMapping(number: Int32, expected: StoreError.Code) {
        let error = SystemCalls.failure("fsync failed", code: .syncFailed, operation: .write, path: "/p", errno: number)
        #expect(error.code == expected)
        #expect(error.errno == number)
    }
}
