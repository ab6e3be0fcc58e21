#define BOOST_TEST_MODULE deskcheck
#include <boost/test/unit_test.hpp>
