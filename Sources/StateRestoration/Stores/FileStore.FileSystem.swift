import Foundation

extension FileStore {
    /// The system calls with which a ``FileStore`` changes its files, each made through
    /// ``SystemCalls``: first the failure injected for its step, if any, then the real call, then
    /// the recorder, if any, told of the call that was made.
    ///
    /// Every change a store makes to its files goes through here, so a test that records them
    /// sees each real call, in order, with the path it acted on. Each method takes the path its
    /// errors name (`path`: the archive, or the directory) and the ``StoreError/Operation`` under
    /// way, as the ``SystemCalls`` wrappers do.
    struct FileSystem: Sendable {
        /// Makes the calls of a step fail with an `errno` value; `nil` in production.
        let failure: (@Sendable (WriteStep) -> Int32?)?

        /// Sees each call after it succeeded; `nil` in production.
        let recorder: (@Sendable (Call) -> Void)?

        /// Creates a directory with mode `0700`; returns `false` if something has its name.
        func makePrivateDirectory(_ directory: String, operation: StoreError.Operation) throws(StoreError) -> Bool {
            let created = try SystemCalls.makePrivateDirectory(directory, operation: operation)
            if created { recorder?(.makeDirectory(directory)) }
            return created
        }

        /// Creates and opens a new file, mode `0600`; returns `nil` if its name is taken.
        func createExclusively(
            _ file: String, path: String, operation: StoreError.Operation, what: String = "temporary file"
        ) throws(StoreError) -> Int32? {
            try inject(.create, path, operation: operation)
            let descriptor = try SystemCalls.createExclusively(file, path: path, operation: operation, what: what)
            if descriptor != nil { recorder?(.create(file)) }
            return descriptor
        }

        /// Sets an open file's mode to exactly `0600`.
        func setPrivateMode(
            _ descriptor: Int32, of file: String, path: String, operation: StoreError.Operation
        ) throws(StoreError) {
            try inject(.setMode, path, operation: operation)
            try SystemCalls.setPrivateMode(descriptor, path: path, operation: operation)
            recorder?(.setMode(file))
        }

        /// Writes all the bytes to an open file.
        func writeAll(
            _ data: Data, to descriptor: Int32, of file: String, path: String, operation: StoreError.Operation
        ) throws(StoreError) {
            try inject(.write, path, operation: operation)
            try SystemCalls.writeAll(data, to: descriptor, path: path, operation: operation)
            recorder?(.write(file))
        }

        /// Flushes an open file to stable storage.
        func synchronize(
            _ descriptor: Int32, of file: String, path: String, operation: StoreError.Operation
        ) throws(StoreError) {
            try inject(.synchronize, path, operation: operation)
            try SystemCalls.synchronize(descriptor, path: path, operation: operation)
            recorder?(.synchronize(file))
        }

        /// Closes a written file, reporting a failure. The descriptor is gone afterwards, even
        /// when this throws; an injected failure of the step comes after the real close.
        func close(
            _ descriptor: Int32, of file: String, path: String, operation: StoreError.Operation
        ) throws(StoreError) {
            try SystemCalls.closeChecked(descriptor, path: path, operation: operation)
            recorder?(.close(file))
            try inject(.close, path, operation: operation)
        }

        /// Renames a file over `destination`, atomically; `step` is the step whose injected
        /// failure applies.
        func rename(
            _ source: String, to destination: String, step: WriteStep, operation: StoreError.Operation
        ) throws(StoreError) {
            try inject(step, destination, operation: operation)
            try SystemCalls.rename(source, to: destination, operation: operation)
            recorder?(.rename(source, to: destination))
        }

        /// Removes a file; returns `false` if there was none.
        @discardableResult
        func removeFile(_ file: String, operation: StoreError.Operation) throws(StoreError) -> Bool {
            let removed = try SystemCalls.removeFile(file, operation: operation)
            if removed { recorder?(.remove(file)) }
            return removed
        }

        /// Removes a file, if there is one, after a failure already reported or in a cleanup
        /// whose failure is no error.
        func removeFileIgnoringErrors(_ file: String) {
            _ = try? removeFile(file, operation: .write)
        }

        /// Flushes a directory's entries to stable storage.
        func synchronizeDirectory(_ directory: String, operation: StoreError.Operation) throws(StoreError) {
            try inject(.synchronizeDirectory, directory, operation: operation)
            try SystemCalls.synchronizeDirectory(directory, operation: operation)
            recorder?(.synchronizeDirectory(directory))
        }

        /// Throws the failure injected for a step, if any, as the real call's error would be:
        /// naming `path`, with the step's code unless the `errno` is about permissions or space.
        func inject(_ step: WriteStep, _ path: String, operation: StoreError.Operation = .write) throws(StoreError) {
            guard let number = failure?(step) else { return }
            let code: StoreError.Code =
                switch step {
                case .create, .setMode, .write, .close: .writeFailed
                case .synchronize, .synchronizeDirectory: .syncFailed
                case .rename, .moveArchiveAside: .renameFailed
                }
            throw SystemCalls.failure(
                "\(step) failed (injected)", code: code, operation: operation, path: path, errno: number)
        }
    }
}
