# CMDBENCH_WITH_PMIX: join mpirun / srun --mpi=pmix jobs through the
# launcher's PMIx server (pkg-config pmix, Debian's libpmix-dev).
#   AUTO (default): with PMIx when it is found; ON: required; OFF: without.
# cmdbench_add_job_sources(target) adds the job implementation that fits.
set(CMDBENCH_WITH_PMIX AUTO CACHE STRING "Join mpirun/srun jobs through PMIx: AUTO, ON or OFF")
set_property(CACHE CMDBENCH_WITH_PMIX PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${CMDBENCH_WITH_PMIX}" _cmdbench_pmix_choice)
if(NOT _cmdbench_pmix_choice MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "CMDBENCH_WITH_PMIX is '${CMDBENCH_WITH_PMIX}': use AUTO, ON or OFF")
endif()

set(CMDBENCH_HAVE_PMIX OFF)
if(NOT _cmdbench_pmix_choice STREQUAL "OFF")
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(PMIX IMPORTED_TARGET pmix)
  if(PMIX_FOUND)
    set(CMDBENCH_HAVE_PMIX ON)
  elseif(_cmdbench_pmix_choice STREQUAL "ON")
    message(FATAL_ERROR "CMDBENCH_WITH_PMIX=ON but pkg-config finds no pmix: install libpmix-dev "
                        "(tools/install-deps.sh) or configure with -DCMDBENCH_WITH_PMIX=OFF")
  endif()
endif()
if(CMDBENCH_HAVE_PMIX)
  message(STATUS "PMIx (mpirun / srun --mpi=pmix jobs): ON, pmix ${PMIX_VERSION}")
else()
  message(STATUS "PMIx (mpirun / srun --mpi=pmix jobs): OFF (CMDBENCH_WITH_PMIX=${CMDBENCH_WITH_PMIX}; "
                 "install libpmix-dev for it)")
endif()

function(cmdbench_add_job_sources target)
  target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core/host/matrix/src/job_env.cpp)
  if(CMDBENCH_HAVE_PMIX)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core/host/matrix/src/job_pmix.cpp)
    # An imported target: its headers are SYSTEM, so their warnings do not
    # meet -Werror.
    target_link_libraries(${target} PRIVATE PkgConfig::PMIX)
  else()
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core/host/matrix/src/job_none.cpp)
  endif()
endfunction()
