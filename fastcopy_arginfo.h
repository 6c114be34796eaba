/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 9249fd3f5acc748d486d3a2eb1d95b8f6ee954b5 */

#if PHP_VERSION_ID >= 80600
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_fastcopy_stream, 0, 2, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_INFO(0, from)
	ZEND_ARG_INFO(0, to)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, length, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, offset, IS_LONG, 0, "0")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, context, "null")
ZEND_END_ARG_INFO()
#endif

#if !(PHP_VERSION_ID >= 80600)
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_fastcopy_stream, 0, 2, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_INFO(0, from)
	ZEND_ARG_INFO(0, to)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, length, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, offset, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()
#endif

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fastcopy_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


#if PHP_VERSION_ID >= 80600
ZEND_FUNCTION(fastcopy_stream);
#endif
#if !(PHP_VERSION_ID >= 80600)
ZEND_FUNCTION(fastcopy_stream);
#endif
ZEND_FUNCTION(fastcopy_stats);


static const zend_function_entry ext_functions[] = {
#if PHP_VERSION_ID >= 80600
	ZEND_FE(fastcopy_stream, arginfo_fastcopy_stream)
#endif
#if !(PHP_VERSION_ID >= 80600)
	ZEND_FE(fastcopy_stream, arginfo_fastcopy_stream)
#endif
	ZEND_FE(fastcopy_stats, arginfo_fastcopy_stats)
	ZEND_FE_END
};
