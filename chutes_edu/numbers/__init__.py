"""Each exercise set's declared numbers, ``setNN.json``, written by ``make exercises`` from the
``my_numbers(...)`` cell of ``solutions/NN_*.ipynb`` (read by :mod:`chutes_edu.variants`)."""
