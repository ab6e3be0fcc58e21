# `cmake --install` installs model/ — the logic under test, standard library only — as the CMake
# package `deskcheck`: a real desktop helper does find_package(deskcheck) and links deskcheck::model.
# The simulator, the checks and the tools are the testbed, not installed.
# Proved by tests/cli/install_consumer.sh (a tiny consumer project built against the install).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS deskcheck_model EXPORT deskcheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/model/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/model
        FILES_MATCHING PATTERN "*.h")
install(EXPORT deskcheckTargets NAMESPACE deskcheck:: FILE deskcheckTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/deskcheck)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/deskcheckConfig.cmake.in
    ${PROJECT_BINARY_DIR}/deskcheckConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/deskcheck)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/deskcheckConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/deskcheckConfig.cmake ${PROJECT_BINARY_DIR}/deskcheckConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/deskcheck)
