#include "mpi_channel.h"

#include <climits>
#include <stdexcept>

namespace bif::cli::mpi {

void check(int status, const char* call, int peer) {
    if (status == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(status, text, &length);
    throw std::runtime_error(std::string(call) + " with rank " + std::to_string(peer) + ": " +
                             std::string(text, static_cast<std::size_t>(length)));
}

void send_bytes(int peer, Tag tag, const void* data, std::size_t size) {
    // MPI counts are ints; a block of more than 2 GiB would need a derived type.
    if (size > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("a block of " + std::to_string(size) +
                                 " bytes is too large for one MPI message; use a smaller --block-systems");
    check(MPI_Send(data, static_cast<int>(size), MPI_BYTE, peer, static_cast<int>(tag), MPI_COMM_WORLD),
          "MPI_Send", peer);
}

std::vector<std::byte> receive_probed(const MPI_Status& probed) {
    int size = 0;
    check(MPI_Get_count(&probed, MPI_BYTE, &size), "MPI_Get_count", probed.MPI_SOURCE);
    std::vector<std::byte> bytes(static_cast<std::size_t>(size));
    check(MPI_Recv(bytes.data(), size, MPI_BYTE, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv", probed.MPI_SOURCE);
    return bytes;
}

void send_assignment(int peer, std::uint64_t first, std::uint64_t count) {
    const std::uint64_t range[2] = {first, count};
    send_bytes(peer, Tag::Assign, range, sizeof range);
}

void receive_assignment(std::uint64_t& first, std::uint64_t& count) {
    std::uint64_t range[2] = {0, 0};
    check(MPI_Recv(range, sizeof range, MPI_BYTE, 0, static_cast<int>(Tag::Assign), MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv", 0);
    first = range[0];
    count = range[1];
}

} // namespace bif::cli::mpi
