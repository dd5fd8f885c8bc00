"""The MCTS Lab Streamlit app (``streamlit run app/main.py``)."""
