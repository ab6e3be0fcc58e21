# Dependencies come from Debian packages only. A missing one stops configure with one line that
# names the package to install.
function(deskcheck_require found package what)
    if(NOT ${found})
        message(FATAL_ERROR "deskcheck: ${what} not found: install the Debian package ${package} (apt-get install ${package}), or run bash tools/dc build")
    endif()
endfunction()

find_package(nlohmann_json 3 CONFIG QUIET)
deskcheck_require(nlohmann_json_FOUND nlohmann-json3-dev "nlohmann/json")

if(DESKCHECK_BUILD_TESTS)
    find_package(rapidcheck CONFIG QUIET)
    deskcheck_require(rapidcheck_FOUND librapidcheck-dev "RapidCheck")
    if(NOT TARGET rapidcheck_boost_test)
        message(FATAL_ERROR "deskcheck: RapidCheck's Boost.Test adapter (target rapidcheck_boost_test) not found: install the Debian package librapidcheck-dev")
    endif()
    find_package(Boost 1.74 QUIET COMPONENTS unit_test_framework)
    deskcheck_require(Boost_FOUND libboost-test-dev "Boost.Test (Boost unit_test_framework)")
endif()
