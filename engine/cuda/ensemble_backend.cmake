# The CUDA backend (included from CMakeLists.txt): the study programs of kernels/bif/study run one
# thread per system on every GPU, over the foundation above. The study's host-side layout (spec,
# batches, result assembly) comes from engine/ensemble, which the CPU backend shares.
if(TARGET bifscope_ensemble)
  add_library(bifscope_cuda_backend STATIC
    ensemble_source.cpp
    ensemble_batch.cpp
    ensemble_program.cpp
    ensemble_runner.cpp
    chain_runner.cpp
    orbit_refiner.cpp
    cuda_backend.cpp
    device_map.cpp
    device_points.cpp)
  target_include_directories(bifscope_cuda_backend PUBLIC ${PROJECT_SOURCE_DIR})
  find_package(Threads REQUIRED)
  target_link_libraries(bifscope_cuda_backend PUBLIC bifscope_cuda bifscope_ensemble Threads::Threads)
endif()
