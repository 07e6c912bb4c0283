import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's memory in use and its high-water mark, from the operating system.
enum ProcessMemory {
    #if canImport(Glibc)
        /// How the figures are taken, for the report.
        static let method =
            "Linux: resident set (/proc/self/statm) before the operation; its high-water mark (VmHWM in"
            + " /proc/self/status) after it, reset to the resident set before it by writing 5 to /proc/self/clear_refs"

        /// The resident set in bytes: the second field of /proc/self/statm, in pages.
        static func current() -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        /// The resident set's high-water mark in bytes: VmHWM in /proc/self/status.
        ///
        /// `getrusage(RUSAGE_SELF)`'s `ru_maxrss` is the larger of this mark and, in a process started
        /// by `posix_spawn` (a vfork), the parent's mark from before the exec, which no reset clears.
        static func peak() -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kibibytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
            else { return nil }
            return kibibytes * 1024
        }

        /// Sets the high-water mark to the current resident set; false where the kernel refuses.
        static func resetPeak() -> Bool {
            guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
            defer { try? handle.close() }
            return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        }

        /// Hands the heap's free memory back to the system with glibc's `malloc_trim(0)`, so that
        /// memory freed before the baseline is neither counted in it nor reused unseen after it.
        /// (The Glibc module does not import malloc.h.)
        static func trimHeap() {
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
    #elseif canImport(Darwin)
        static let method =
            "Darwin: phys_footprint before the operation, ledger_phys_footprint_peak after it (not resettable)"

        private static func vmInfo() -> task_vm_info_data_t? {
            var info = task_vm_info_data_t()
            var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
            let result = withUnsafeMutablePointer(to: &info) {
                $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
                }
            }
            return result == KERN_SUCCESS ? info : nil
        }

        static func current() -> Int? { vmInfo().map { Int($0.phys_footprint) } }
        static func peak() -> Int? { vmInfo().map { Int($0.ledger_phys_footprint_peak) } }
        static func resetPeak() -> Bool { false }
        static func trimHeap() {}
    #else
        static let method = "not measured on this platform"
        static func current() -> Int? { nil }
        static func peak() -> Int? { nil }
        static func resetPeak() -> Bool { false }
        static func trimHeap() {}
    #endif
}
