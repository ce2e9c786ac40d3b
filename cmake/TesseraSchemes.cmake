# Scheme folders (docs/architecture.md, "Design conventions"): every directory under a schemes root
# is one scheme (but for names starting with "." or "_": an editor's or a tool's), with its README
# citing the paper. Its sources are every .cpp in it outside its tests/ folder, its registration function
# is register_<folder> (the folder name as a C identifier: dtm-nuca -> register_dtm_nuca), and its
# tests are the .cpp files of its tests/ folder. Nothing outside the folder lists it: the
# functions below collect the folders and generate the registry that calls each registration.

# tessera_collect_schemes(<root> <names_var> <sources_var> <tests_var>): the folders under
# <root>, in name order, their sources and their tests (absolute paths).
function(tessera_collect_schemes root names_var sources_var tests_var)
  file(GLOB _children LIST_DIRECTORIES true CONFIGURE_DEPENDS "${root}/*")
  list(SORT _children)
  set(_names)
  set(_sources)
  set(_tests)
  foreach(_dir IN LISTS _children)
    if(NOT IS_DIRECTORY "${_dir}")
      continue()
    endif()
    get_filename_component(_name "${_dir}" NAME)
    if(_name MATCHES "^[._]")
      continue()
    endif()
    if(NOT EXISTS "${_dir}/README.md")
      message(FATAL_ERROR "scheme folder ${_dir} has no README.md (a scheme folder holds its README citing the "
                          "paper, docs/architecture.md)")
    endif()
    file(GLOB_RECURSE _cpp CONFIGURE_DEPENDS "${_dir}/*.cpp")
    file(GLOB_RECURSE _test_cpp CONFIGURE_DEPENDS "${_dir}/tests/*.cpp")
    if(_test_cpp)
      list(REMOVE_ITEM _cpp ${_test_cpp})
    endif()
    if(NOT _cpp)
      message(FATAL_ERROR "scheme folder ${_dir} has no source (a scheme folder holds at least its registration)")
    endif()
    list(APPEND _names "${_name}")
    list(APPEND _sources ${_cpp})
    list(APPEND _tests ${_test_cpp})
  endforeach()
  set(${names_var} "${_names}" PARENT_SCOPE)
  set(${sources_var} "${_sources}" PARENT_SCOPE)
  set(${tests_var} "${_tests}" PARENT_SCOPE)
endfunction()

# tessera_scheme_registry(<output> <function> <name>...): writes <output>, a C++ file defining
# void tessera::model::<function>(SchemeRegistry&), which registers the named scheme folders'
# schemes in the order given (the product's is register_schemes, SchemeRegistry::global()'s).
function(tessera_scheme_registry output function)
  set(_declarations "")
  set(_calls "")
  foreach(_name IN LISTS ARGN)
    string(MAKE_C_IDENTIFIER "${_name}" _id)
    string(APPEND _declarations "void register_${_id}(SchemeRegistry& registry);  // ${_name}/\n")
    string(APPEND _calls "  register_${_id}(registry);\n")
  endforeach()
  set(TESSERA_SCHEME_DECLARATIONS "${_declarations}")
  set(TESSERA_SCHEME_CALLS "${_calls}")
  set(TESSERA_SCHEME_FUNCTION "${function}")
  configure_file("${PROJECT_SOURCE_DIR}/model/schemes/registry.cpp.in" "${output}" @ONLY)
endfunction()
