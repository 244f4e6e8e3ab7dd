#include "distributed_run.h"
#include "mpi_channel.h"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace bif::cli::mpi {

bool launched_as_several_processes() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"})
        if (const char* value = std::getenv(name)) return std::atoi(value) > 1;
    return false;
}

Session::Session() {
    // The worker's job thread makes the MPI calls there (rank 0 makes them on its main thread only):
    // one thread at a time, not always the main one.
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        throw std::runtime_error("MPI_Init_thread failed");
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        throw std::runtime_error("this MPI library offers no MPI_THREAD_SERIALIZED");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node) ==
            MPI_SUCCESS &&
        node != MPI_COMM_NULL) {
        MPI_Comm_rank(node, &node_rank_);
        MPI_Comm_size(node, &node_size_);
        MPI_Comm_free(&node);
    }
}

// Every rank waits here for the others before MPI_Finalize. Open MPI's finalize is a PMIx fence,
// and when rank 0 aborts the job (a hung rank) mpirun must kill ranks that wait in it; Debian 12's
// mpirun then deadlocks now and then in its own teardown, long after the ranks are gone. Killed in
// an MPI barrier instead, they leave mpirun nothing to trip over. The barrier is polled with short
// sleeps so that a rank done early leaves its cores to the ranks still integrating.
Session::~Session() {
    MPI_Request barrier = MPI_REQUEST_NULL;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &barrier) == MPI_SUCCESS)
        for (int done = 0; MPI_Test(&barrier, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done;)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    MPI_Finalize();
}

int Session::highest_status(int status, int& rank) const {
    int mine[2] = {status, rank_}, highest[2] = {status, rank_};
    check(MPI_Allreduce(mine, highest, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD), "MPI_Allreduce",
          MPI_ANY_SOURCE);
    rank = highest[1];
    return highest[0];
}

void Session::abort_all(int status) {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
}

} // namespace bif::cli::mpi
