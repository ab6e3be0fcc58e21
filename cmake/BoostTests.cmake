# deskcheck_boost_test(NAME LABEL SOURCES... [LIBS ...])
# Builds one Boost.Test executable and registers every test case it declares as its own CTest
# test (so `ctest -N -L LABEL` lists them by name), scanning the sources for BOOST_AUTO_TEST_CASE,
# BOOST_DATA_TEST_CASE and RC_BOOST_PROP. Suites are not used: names are global and start with
# the SPEC ID they pin.
function(deskcheck_boost_test name label)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;ENV" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} Boost::unit_test_framework deskcheck_warnings)
    target_compile_definitions(${name} PRIVATE BOOST_TEST_DYN_LINK)
    set(cases "")
    foreach(src IN LISTS ARG_SOURCES)
        get_filename_component(abs "${src}" ABSOLUTE)
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}")
        file(STRINGS "${abs}" lines REGEX "^[ \t]*(BOOST_AUTO_TEST_CASE|BOOST_DATA_TEST_CASE|RC_BOOST_PROP)\\(")
        foreach(line IN LISTS lines)
            string(REGEX REPLACE "^[ \t]*[A-Z_]+\\([ \t]*([A-Za-z0-9_]+).*$" "\\1" case "${line}")
            list(APPEND cases "${case}")
        endforeach()
    endforeach()
    list(REMOVE_DUPLICATES cases)
    foreach(case IN LISTS cases)
        add_test(NAME ${case} COMMAND ${name} --run_test=${case} --log_level=test_suite --color_output=no
                 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
        set_tests_properties(${case} PROPERTIES LABELS "${label}" ENVIRONMENT "${ARG_ENV}")
    endforeach()
endfunction()
