# The plugin SDK: what a third-party plugin builds against after
# `cmake --install`. The ABI header, plus the header-only C++ helpers that
# declare a plugin's parameters once (cmdbench/plugin-support/param_spec.hpp
# and what it includes); this file installs those and makes them findable, with find_package(cmdbench) (target cmdbench::plugin_sdk) or
# pkg-config (cmdbench-plugin). Included once from the top-level CMakeLists.
include(CMakePackageConfigHelpers)

set(CMDBENCH_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/cmdbench")
set(CMDBENCH_PKGCONFIG_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# Include directory only: a plugin links nothing of cmdbench's.
add_library(cmdbench_plugin_sdk INTERFACE)
add_library(cmdbench::plugin_sdk ALIAS cmdbench_plugin_sdk)
set_target_properties(cmdbench_plugin_sdk PROPERTIES EXPORT_NAME plugin_sdk)
target_include_directories(cmdbench_plugin_sdk INTERFACE
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/core/include>"
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/libs/plugin-support/include>"
  "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
# Header-only, needing nothing but plugin.h and the C++ standard library.
set(_cmdbench_sdk_support ${PROJECT_SOURCE_DIR}/libs/plugin-support/include/cmdbench/plugin-support)
install(FILES ${_cmdbench_sdk_support}/param_spec.hpp ${_cmdbench_sdk_support}/run_error.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cmdbench/plugin-support)

install(TARGETS cmdbench_plugin_sdk EXPORT cmdbenchTargets)
install(EXPORT cmdbenchTargets NAMESPACE cmdbench:: DESTINATION ${CMDBENCH_CMAKE_INSTALL_DIR})

# The ABI version a plugin built against this header gets, for the config
# file's variables (read from the header, the single source of truth).
file(STRINGS "${PROJECT_SOURCE_DIR}/core/include/cmdbench/plugin.h" _cmdbench_abi_lines
     REGEX "^#define CMDBENCH_ABI_(MAJOR|MINOR) [0-9]+")
string(REGEX REPLACE ".*CMDBENCH_ABI_MAJOR ([0-9]+).*" "\\1" CMDBENCH_SDK_ABI_MAJOR "${_cmdbench_abi_lines}")
string(REGEX REPLACE ".*CMDBENCH_ABI_MINOR ([0-9]+).*" "\\1" CMDBENCH_SDK_ABI_MINOR "${_cmdbench_abi_lines}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/core/include/cmdbench/plugin.h")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/cmdbenchConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/cmdbenchConfig.cmake"
  INSTALL_DESTINATION ${CMDBENCH_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMDBENCH_PLUGIN_SUBDIR)
# 0.x releases promise nothing across minors; the plugin ABI has its own
# version, checked by the host at load time.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/cmdbenchConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/cmake/cmdbenchConfig.cmake"
              "${PROJECT_BINARY_DIR}/cmake/cmdbenchConfigVersion.cmake"
        DESTINATION ${CMDBENCH_CMAKE_INSTALL_DIR})

# pkg-config: relative to the .pc file's own location, so the tree still
# works when installed with `cmake --install --prefix` somewhere else than
# CMAKE_INSTALL_PREFIX.
file(RELATIVE_PATH CMDBENCH_PC_TO_PREFIX
     "/prefix/${CMDBENCH_PKGCONFIG_INSTALL_DIR}" "/prefix")
string(REGEX REPLACE "/$" "" CMDBENCH_PC_TO_PREFIX "${CMDBENCH_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/cmdbench-plugin.pc.in"
               "${PROJECT_BINARY_DIR}/cmake/cmdbench-plugin.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cmake/cmdbench-plugin.pc"
        DESTINATION ${CMDBENCH_PKGCONFIG_INSTALL_DIR})
