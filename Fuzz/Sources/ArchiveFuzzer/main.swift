import FuzzSupport
import Foundation

/// libFuzzer's entry point. Build and run with Scripts/fuzz.sh SECONDS; a plain
/// build makes an executable that does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzOne(Data(bytes: bytes, count: size))
    return 0
}
