// `replay --jobs`' threads and the semaphore that bounds how far they run ahead: POSIX threads
// and a POSIX semaphore, the pointer code of the parallel replay (docs/architecture.md).
import Glibc

/// A counting semaphore (sem_t), allocated once and destroyed with its owner, which outlives
/// the threads that share it.
// Unchecked: a POSIX semaphore is made for sharing between threads.
final class CountingSemaphore: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    init(_ value: Int) {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, UInt32(clamping: value))
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Takes a permit, waiting for one.
    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    /// Gives a permit back.
    func signal() {
        sem_post(semaphore)
    }
}

/// Runs `body(worker)` on `count` threads and waits for all of them.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var threads: [pthread_t] = []
    for worker in 0..<count {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Work { body(worker) }).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if result != 0 {
            // No thread: this one does the work (the files are shared, so nothing is lost).
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            continue
        }
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// The number of cores online, the default of --jobs.
public func onlineCores() -> Int {
    max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
