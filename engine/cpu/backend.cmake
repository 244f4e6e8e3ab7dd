# The CPU backend (included from CMakeLists.txt): the study programs of kernels/bif/study compiled
# natively per study, or instantiated here over the compiler-free evaluator, run on a thread pool.
add_library(bifscope_cpu_backend STATIC
  cpu_backend.cpp
  ensemble_runner.cpp
  evaluator_study_program.cpp
  evaluator_rk4.cpp
  evaluator_iteration.cpp
  evaluator_rkck45.cpp
  evaluator_dopri5.cpp
  evaluator_rkc.cpp
  evaluator_rosenbrock23.cpp
  evaluator_rodas4.cpp
  native_study_program.cpp
  orbit_runner.cpp)
target_include_directories(bifscope_cpu_backend PUBLIC ${PROJECT_SOURCE_DIR})
find_package(Threads REQUIRED)
target_link_libraries(bifscope_cpu_backend PUBLIC bifscope_cpu bifscope_ensemble bifscope_study bifscope_codegen
  bifscope_kernels Threads::Threads)
