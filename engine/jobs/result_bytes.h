// A finished block of a run as bytes and back, for sending it to another process: every column of
// its Result (doubles bit for bit, NaNs included), its run information and its systems. The bytes
// are in the host's byte order: both ends must be the same kind of machine (as the nodes of one
// MPI job are).
#pragma once

#include "engine/jobs/result_block.h"

#include <cstddef>
#include <span>
#include <vector>

namespace bif::jobs {

// The block's result, systems and pass fields as bytes.
std::vector<std::byte> encode_block(const ResultBlock& block);

// The block encode_block wrote. Throws std::runtime_error when the bytes are cut short or malformed.
ResultBlock decode_block(std::span<const std::byte> bytes);

} // namespace bif::jobs
