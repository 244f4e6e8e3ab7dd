// The messages between rank 0 and the workers of a distributed run, over MPI_COMM_WORLD with
// MPI_ERRORS_RETURN: a failed call throws std::runtime_error naming the other rank, never aborts.
//
//   worker -> 0   Ready    (empty)        the first request
//   worker -> 0   Block    encoded block   a finished block (encode_block), and the next request
//   worker -> 0   Failed   text            the worker's job failed; it stops
//   0 -> worker   Assign   {first, count}  the next range; count 0: stop
#pragma once

#include <cstddef>
#include <cstdint>
#include <mpi.h>
#include <string>
#include <vector>

namespace bif::cli::mpi {

enum class Tag : int { Ready = 1, Block = 2, Failed = 3, Assign = 4 };

// Throws std::runtime_error("MPI_Send to rank 2: <MPI's text>") unless status is MPI_SUCCESS.
void check(int status, const char* call, int peer);

void send_bytes(int peer, Tag tag, const void* data, std::size_t size);
// Receives the message that MPI_Probe/MPI_Iprobe found (its source and tag) whole.
std::vector<std::byte> receive_probed(const MPI_Status& probed);

void send_assignment(int peer, std::uint64_t first, std::uint64_t count);
// Blocks until rank 0 sends the next range; count 0 means stop.
void receive_assignment(std::uint64_t& first, std::uint64_t& count);

} // namespace bif::cli::mpi
